// Hostile and malformed OAuth requests get the RFC's error and change nothing: wrong verifier,
// plain PKCE, redirect URI variants, unknown clients, replayed codes (flow.test.ts), wider scopes,
// bad registrations, and tokens bound to one resource presented at another (RFC 8707).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import type { Browser } from '../web/browser.ts';
import { authorize, callWith, exchange, ISSUER, type OAuthTest, registerClient, startOAuthTest } from './helpers.ts';

let o: OAuthTest;
let browser: Browser;
let client: oauth.Client;
const REDIRECT = 'https://agent.example.net/callback';

before(async () => {
  o = await startOAuthTest();
  browser = await o.signIn('hostile@example.org');
  client = await registerClient(o, { redirect_uris: [REDIRECT, 'http://127.0.0.1:7777/callback'] });
});
after(async () => {
  await o?.close();
});

const counts = async () => ({
  codes: (await o.t.ctx.db.selectFrom('oauth_codes').select('hash').execute()).length,
  grants: (await o.t.ctx.db.selectFrom('oauth_grants').select('id').execute()).length,
  tokens: (await o.t.ctx.db.selectFrom('oauth_tokens').select('hash').execute()).length,
});

function authorizeUrl(params: Record<string, string>): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'st',
    ...params,
  });
  return `/oauth/authorize?${q}`;
}

/** Raw form POST to an OAuth endpoint over HTTP. */
async function post(path: string, form: Record<string, string>) {
  const res = await o.http[oauth.customFetch](`${ISSUER}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string>, headers: res.headers };
}

test('redirect URI variants and unknown clients are shown as errors, never redirected', async () => {
  const before = await counts();
  for (const redirect of [
    'https://agent.example.net/callback/',
    'https://Agent.example.net/callback',
    'https://agent.example.net/Callback',
    'https://agent.example.net/callback?x=1',
    'https://agent.example.net:443/callback#f',
    'https://evil.example.com/callback',
  ]) {
    const res = await browser.get(authorizeUrl({ redirect_uri: redirect }));
    assert.equal(res.status, 400, redirect);
    assert.equal(res.location, undefined, redirect);
    assert.match(res.headers['content-type'] as string, /text\/html/);
  }
  for (const clientId of ['ctc_unknown', '']) {
    const res = await browser.get(authorizeUrl({ client_id: clientId }));
    assert.equal(res.status, 400);
    assert.equal(res.location, undefined);
  }
  const noRedirect = await browser.get(authorizeUrl({ redirect_uri: '' }));
  assert.equal(noRedirect.status, 400);
  assert.deepEqual(await counts(), before);
});

test('plain PKCE, no PKCE, another response type, an unknown scope or resource: shown on the service page, never redirected', async () => {
  const before = await counts();
  const cases: [Record<string, string>, string][] = [
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge_method: '' }, 'invalid_request'],
    [{ code_challenge: '' }, 'invalid_request'],
    [{ code_challenge: 'short' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'public.read admin.everything' }, 'invalid_scope'],
    [{ resource: 'https://elsewhere.example/api' }, 'invalid_target'],
    [{ resource: `${ISSUER}/api/v1` }, 'invalid_target'],
  ];
  for (const [params, error] of cases) {
    const url = authorizeUrl(params);
    const res = await browser.get(params.code_challenge === '' ? url.replace(/code_challenge=&/, '') : url);
    // RFC 9700 §4.11.2: the redirect URI is the client's say, and any client may register one.
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.equal(res.location, undefined, JSON.stringify(params));
    assert.ok(res.body.includes(`OAuth error ${error}`), JSON.stringify(params));
  }
  assert.deepEqual(await counts(), before);
});

test('a wrong code_verifier, another client, another redirect URI: invalid_grant, and the code still works afterwards', async () => {
  const a = await authorize(o, browser, client, { redirectUri: REDIRECT });
  const code = a.callback.searchParams.get('code')!;
  const other = await registerClient(o, { redirect_uris: [REDIRECT] });
  const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: a.verifier };
  const before = await counts();
  for (const change of [
    { code_verifier: oauth.generateRandomCodeVerifier() },
    { code_verifier: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' },
    { code_verifier: '' },
    { client_id: other.client_id },
    { redirect_uri: `${REDIRECT}/` },
    { code: `${code}x` },
  ]) {
    const res = await post('/oauth/token', { ...base, ...change });
    assert.equal(res.status, 400, JSON.stringify(change));
    assert.equal(res.body.error, 'invalid_grant', JSON.stringify(change));
    assert.equal(typeof res.body.error_description, 'string');
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
  }
  assert.deepEqual(await counts(), before);
  const ok = await post('/oauth/token', base);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  assert.equal(ok.headers.get('pragma'), 'no-cache');
});

test('the token endpoint: unknown client 401 invalid_client, unsupported or missing grant_type, bad refresh tokens', async () => {
  const unknown = await post('/oauth/token', { grant_type: 'authorization_code', code: 'abc', client_id: 'ctc_nobody' });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.error, 'invalid_client');
  assert.equal((await post('/oauth/token', { grant_type: 'password', client_id: client.client_id })).body.error, 'unsupported_grant_type');
  assert.equal((await post('/oauth/token', { client_id: client.client_id })).body.error, 'invalid_request');
  const bad = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ctr_nothing', client_id: client.client_id });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'invalid_grant');
  // A refresh token of one client presented by another.
  const tokens = await exchange(o, client, await authorize(o, browser, client));
  const other = await registerClient(o);
  const stolen = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: other.client_id });
  assert.equal(stolen.body.error, 'invalid_grant');
  // Not a form: nothing in it is read (RFC 6749 §4.1.3 asks for application/x-www-form-urlencoded).
  const text = await o.http[oauth.customFetch](`${ISSUER}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'grant_type=refresh_token',
  });
  assert.equal(text.status, 400);
  assert.equal(((await text.json()) as any).error, 'invalid_request');
});

test('dynamic registration refuses unsafe or confidential clients with RFC 7591 errors, registering nothing', async () => {
  const before = (await o.t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length;
  const cases: [unknown, string][] = [
    [{ redirect_uris: ['http://agent.example.net/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://agent.example.net/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{}, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(201) }, 'invalid_client_metadata'],
    [['https://a.example/cb'], 'invalid_client_metadata'],
  ];
  for (const [body, error] of cases) {
    const res = await o.http[oauth.customFetch](`${ISSUER}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(((await res.json()) as any).error, error, JSON.stringify(body));
  }
  assert.equal((await o.t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length, before);
  // Native clients: loopback http and reverse-domain schemes are accepted (RFC 8252 §7).
  const native = await registerClient(o, { redirect_uris: ['http://localhost:3334/cb', 'http://[::1]:9/cb', 'com.example.agent:/cb'] });
  assert.equal((native.redirect_uris as string[]).length, 3);
});

test('resource indicators (RFC 8707): a token bound to /mcp is refused at /api and /a2a; one without a resource works on all', async () => {
  const bound = await exchange(o, client, await authorize(o, browser, client, { resource: `${ISSUER}/mcp` }));
  const atApi = await callWith(o, '/api/v1/me', bound.access_token);
  assert.equal(atApi.status, 401);
  assert.match(atApi.headers.get('www-authenticate')!, /error="invalid_token"/);
  const a2a = await o.http[oauth.customFetch](`${ISSUER}/a2a`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bound.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(a2a.status, 401);
  await a2a.body?.cancel();
  const api = await exchange(o, client, await authorize(o, browser, client, { resource: `${ISSUER}/api` }));
  assert.equal((await callWith(o, '/api/v1/me', api.access_token)).status, 200);
  assert.equal((await callWith(o, '/api/v2/me', api.access_token)).status, 200);
  // A token without a resource, narrowed to one at the token request (RFC 8707 §2.2).
  const free = await exchange(o, client, await authorize(o, browser, client));
  assert.equal((await callWith(o, '/api/v1/me', free.access_token)).status, 200);
  const a2aFree = await o.http[oauth.customFetch](`${ISSUER}/a2a`, {
    method: 'POST',
    headers: { authorization: `Bearer ${free.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.notEqual(a2aFree.status, 401);
  await a2aFree.body?.cancel();
  // A grant bound to /mcp cannot be refreshed into an /api token.
  const refused = await post('/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: bound.refresh_token!,
    client_id: client.client_id,
    resource: `${ISSUER}/api`,
  });
  assert.equal(refused.body.error, 'invalid_target');
});
