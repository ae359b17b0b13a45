// The MCP SDK client's own OAuth flow against /mcp, over real HTTP: the 401 with its
// resource_metadata challenge, protected resource metadata discovery (RFC 9728), authorization
// server metadata (RFC 8414), dynamic client registration (RFC 7591), the authorization request
// with PKCE (RFC 7636) and the MCP resource (RFC 8707), a person signing in and approving the
// consent page, the code exchange (finishAuth), and then tools listed and called with the token,
// which is bound to /mcp and refused on the JSON API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  UnauthorizedError,
} from '@modelcontextprotocol/client';

import { freshDatabase } from '../../helpers/context.ts';
import { freePort } from '../../helpers/free-port.ts';
import { seedPublicData } from '../../helpers/seed.ts';
import { startService, type TestService } from '../../helpers/service.ts';
import { csrfOf, linkIn } from '../web/browser.ts';
import { accountActor } from '../../helpers/actors.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let service: TestService;
let base: string;

before(async () => {
  database = await freshDatabase();
  // BASE_URL is the listening origin, so the discovery documents point back at this service.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  service = await startService(database.env, { PORT: String(port), BASE_URL: base });
  await seedPublicData(service.ctx.db);
});
after(async () => {
  await service?.close();
  await database?.drop();
});

const REDIRECT = 'http://127.0.0.1:7777/callback';

/** An in-memory OAuthClientProvider: what a native MCP client keeps between the redirect and the callback. */
class MemoryProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier: string | undefined;
  discovered: OAuthDiscoveryState | undefined;
  readonly sentState = crypto.randomUUID();
  readonly redirects: URL[] = [];
  private readonly onRedirect: (url: URL) => Promise<void>;
  constructor(onRedirect: (url: URL) => Promise<void>) {
    this.onRedirect = onRedirect;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP SDK test client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.sentState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.redirects.push(url);
    await this.onRedirect(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

/** A person's user agent over real HTTP: keeps cookies, never follows redirects, posts same-origin forms. */
class Person {
  readonly jar = new Map<string, string>();
  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { 'sec-fetch-site': method === 'POST' ? 'same-origin' : 'none' };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = base;
    }
    const res = await fetch(new URL(url, base), { method, headers, redirect: 'manual', ...(form ? { body: new URLSearchParams(form).toString() } : {}) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      if (/Max-Age=0\b/i.test(c)) this.jar.delete(pair!.slice(0, eq));
      else this.jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return { status: res.status, body: await res.text(), location: res.headers.get('location') };
  }
  /** Signs in with the mailed link (the outbox: no SMTP_URL). */
  async signIn(email: string): Promise<void> {
    const form = await this.request('GET', '/signin');
    const sent = await this.request('POST', '/signin', { _csrf: csrfOf(form.body), email });
    assert.equal(sent.status, 200, sent.body.slice(0, 300));
    const mail = service.ctx.services.mailer.outbox().find((m) => m.to === email);
    assert.ok(mail, `a sign-in mail to ${email}`);
    const confirm = await this.request('GET', linkIn(mail.text));
    const code = /name="code" value="([^"]+)"/.exec(confirm.body)?.[1];
    assert.ok(code, confirm.body.slice(0, 300));
    const done = await this.request('POST', '/signin/verify', { _csrf: csrfOf(confirm.body), code });
    assert.equal(done.status, 303, done.body.slice(0, 300));
  }
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

test('the SDK client goes from the 401 on /mcp to a working token bound to /mcp', async () => {
  const email = `mcp-oauth-${process.pid}@example.org`;
  const person = new Person();
  await person.signIn(email);
  let callback: URL | undefined;
  const provider = new MemoryProvider(async (url) => {
    // The person's browser opens the authorization URL: the consent page, then Approve.
    const consent = await person.request('GET', url.toString());
    assert.equal(consent.status, 200, consent.body.slice(0, 500));
    assert.match(consent.body, /MCP SDK test client/);
    const form: Record<string, string> = { _csrf: csrfOf(consent.body), decision: 'approve' };
    for (const m of consent.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
      if (m[1] !== '_csrf') form[m[1]!] = unescapeHtml(m[2]!);
    }
    const owner = /name="owner" value="([^"]+)"/.exec(consent.body)?.[1];
    assert.ok(owner, 'the consent page offers an owner');
    form.owner = owner;
    const decided = await person.request('POST', '/oauth/authorize', form);
    assert.equal(decided.status, 303, decided.body.slice(0, 500));
    callback = new URL(decided.location!);
  });

  const mcpUrl = new URL(`${base}/mcp`);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name: 'council-tracker-oauth-tests', version: '1.0.0' });
  // MCP authorization §2.3 / RFC 9728 §5.1: the 401 names the protected resource metadata; the SDK
  // discovers, registers and sends the person to authorize, then the connect fails as unauthorized.
  await assert.rejects(client.connect(first), (e: unknown) => e instanceof UnauthorizedError);

  // RFC 7591 §3.2.1: the client was registered dynamically, as a public client.
  assert.ok(provider.client?.client_id, 'client information saved from dynamic registration');
  assert.equal(provider.redirects.length, 1);
  // RFC 9728 §3.1 and RFC 8414 §3.1: the metadata the SDK found by following the challenge.
  assert.equal(provider.discovered?.resourceMetadataUrl, `${base}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(provider.discovered?.authorizationServerMetadata?.issuer, base);
  assert.equal(provider.discovered?.resourceMetadata?.resource, `${base}/mcp`);
  const asked = provider.redirects[0]!;
  assert.equal(`${asked.origin}${asked.pathname}`, `${base}/oauth/authorize`);
  // RFC 7636 §4.3 and RFC 8707 §2: S256 PKCE, and the resource is the MCP server's URL.
  assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(asked.searchParams.get('resource'), `${base}/mcp`);
  assert.equal(asked.searchParams.get('client_id'), provider.client.client_id);
  assert.equal(asked.searchParams.get('redirect_uri'), REDIRECT);

  // RFC 6749 §4.1.2 / RFC 9207 §2: the code, our state and the issuer come back to the redirect URI.
  assert.ok(callback);
  assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT);
  assert.equal(callback.searchParams.get('state'), provider.sentState, 'the SDK leaves state to the caller');
  assert.equal(callback.searchParams.get('iss'), base);
  const code = callback.searchParams.get('code');
  assert.ok(code);
  assert.equal(provider.saved, undefined, 'no token before the code is redeemed');

  await first.finishAuth(callback.searchParams);
  const saved = provider.tokens();
  const token = saved?.access_token;
  assert.ok(token, 'tokens saved after the code exchange');
  assert.equal(saved?.token_type.toLowerCase(), 'bearer');
  await first.close();

  const connected = new Client({ name: 'council-tracker-oauth-tests', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  try {
    const names = (await connected.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('matters_list'), names.join(' '));
    const listed = await connected.callTool({ name: 'matters_list', arguments: { limit: 2 } });
    assert.notEqual(listed.isError, true, JSON.stringify(listed));
    const answer = listed.structuredContent as { data: unknown[] };
    assert.equal(answer.data.length, 2);
    const me = (await connected.callTool({ name: 'me_read', arguments: {} })).structuredContent as any;
    assert.equal(me.account?.email ?? me.email, email, JSON.stringify(me));
  } finally {
    await connected.close();
  }
  assert.equal(provider.redirects.length, 1, 'no second authorization once the token works');

  // RFC 8707 §2: the grant is bound to the MCP surface, and the token is refused elsewhere.
  const account = await service.ctx.services.accounts.findByEmail(email);
  assert.ok(account);
  const apps = await service.ctx.services.oauth.connectedApps(accountActor(account.id), { accountId: account.id });
  assert.deepEqual(
    apps.map((a) => [a.clientId, a.resource]),
    [[provider.client.client_id, 'mcp']],
  );
  const api = await fetch(`${base}/api/v1/matters`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(api.status, 401, await api.text());
  const mcp = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(mcp.status, 200, await mcp.text());
});
