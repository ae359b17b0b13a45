// The service for OAuth tests, listening on a loopback port, and oauth4webapi pointed at it: the
// client speaks real HTTP to the service, whose public URL (BASE_URL, the issuer) is
// http://council.test, so the client's fetch sends each request to the listening address.
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { Clock } from '../../../src/kernel/clock.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type Browser, csrfOf, pathOf, signInViaOutbox } from '../web/browser.ts';

export const ISSUER = 'http://council.test';

export interface OAuthTest {
  t: TestContext;
  /** Options every oauth4webapi request takes: http allowed, requests sent to the listening service. */
  http: { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: true };
  as: oauth.AuthorizationServer;
  signIn(email: string): Promise<Browser>;
  close(): Promise<void>;
}

export async function startOAuthTest(env: Record<string, string> = {}, clock?: Clock): Promise<OAuthTest> {
  const t = await startTestContext({ env, ...(clock ? { clock } : {}) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const send: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== ISSUER) throw new Error(`the test client only talks to the service, not ${url.origin}`);
    return fetch(`${origin}${url.pathname}${url.search}`, init);
  };
  const http = { [oauth.customFetch]: send, [oauth.allowInsecureRequests]: true as const };
  const as = await oauth.processDiscoveryResponse(new URL(ISSUER), await oauth.discoveryRequest(new URL(ISSUER), { ...http, algorithm: 'oauth2' }));
  return {
    t,
    http,
    as,
    signIn: (email) => signInViaOutbox(t.app, () => t.ctx.services.mailer.outbox(), email),
    close: () => t.close(),
  };
}

/** Registers a public client with dynamic registration (RFC 7591) through oauth4webapi. */
export async function registerClient(o: OAuthTest, metadata: Partial<oauth.Client> = {}): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(
    o.as,
    { redirect_uris: ['http://127.0.0.1:7777/callback'], client_name: 'Test Agent', token_endpoint_auth_method: 'none', ...metadata },
    o.http,
  );
  return (await oauth.processDynamicClientRegistrationResponse(res)) as oauth.Client;
}

export interface Authorization {
  verifier: string;
  state: string;
  redirectUri: string;
  /** The URL the browser was sent back to. */
  callback: URL;
}

/** An authorization request in a signed-in browser: the consent page, then Approve (for `owner`) or Deny. */
export async function authorize(
  o: OAuthTest,
  browser: Browser,
  client: oauth.Client,
  options: { scope?: string; owner?: string; decision?: 'approve' | 'deny'; resource?: string; redirectUri?: string } = {},
): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const redirectUri = options.redirectUri ?? (client.redirect_uris as string[])[0]!;
  const url = new URL(o.as.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (options.scope !== undefined) url.searchParams.set('scope', options.scope);
  if (options.resource) url.searchParams.set('resource', options.resource);
  const consent = await browser.get(pathOf(url.toString()));
  if (consent.status !== 200) throw new Error(`consent page: ${consent.status} ${consent.body.slice(0, 500)}`);
  const form: Record<string, string> = { _csrf: csrfOf(consent.body), decision: options.decision ?? 'approve' };
  for (const m of consent.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
    if (m[1] !== '_csrf') form[m[1]!] = unescapeHtml(m[2]!);
  }
  if (options.owner) form.owner = options.owner;
  else {
    const first = /name="owner" value="([^"]+)"/.exec(consent.body);
    if (first) form.owner = first[1]!;
  }
  const decided = await browser.post('/oauth/authorize', form);
  if (decided.status !== 303 || !decided.location) throw new Error(`decision: ${decided.status} ${decided.body.slice(0, 500)}`);
  return { verifier, state, redirectUri, callback: new URL(decided.location) };
}

function unescapeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The code exchange through oauth4webapi: validates the callback (state, iss) and processes the token response. */
export async function exchange(o: OAuthTest, client: oauth.Client, a: Authorization, extra: Record<string, string> = {}) {
  const params = oauth.validateAuthResponse(o.as, client, a.callback, a.state);
  const res = await oauth.authorizationCodeGrantRequest(o.as, client, oauth.None(), params, a.redirectUri, a.verifier, {
    ...o.http,
    additionalParameters: extra,
  });
  return oauth.processAuthorizationCodeResponse(o.as, client, res);
}

export async function refresh(o: OAuthTest, client: oauth.Client, refreshToken: string, extra: Record<string, string> = {}) {
  const res = await oauth.refreshTokenGrantRequest(o.as, client, oauth.None(), refreshToken, { ...o.http, additionalParameters: extra });
  return oauth.processRefreshTokenResponse(o.as, client, res);
}

/** A GET on the service with a Bearer token: the status and body. */
export async function callWith(o: OAuthTest, path: string, token: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await o.http[oauth.customFetch](`${ISSUER}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
