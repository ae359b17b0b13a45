// The authorization code flow end to end with oauth4webapi: discovery, dynamic registration,
// PKCE, consent, code exchange, use of the token, refresh with rotation, reuse detection and
// revocation (RFC 6749, 7591, 7636, 7009, 8414, 9207, 9700).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { authorize, callWith, exchange, ISSUER, type OAuthTest, refresh, registerClient, startOAuthTest } from './helpers.ts';

let o: OAuthTest;
before(async () => {
  o = await startOAuthTest();
});
after(async () => {
  await o?.close();
});

test('discovery: authorization server metadata (RFC 8414) with PKCE S256, public clients, iss, client ID metadata documents and agent_auth', async () => {
  const as = o.as;
  assert.equal(as.issuer, ISSUER);
  assert.equal(as.authorization_endpoint, `${ISSUER}/oauth/authorize`);
  assert.equal(as.token_endpoint, `${ISSUER}/oauth/token`);
  assert.equal(as.registration_endpoint, `${ISSUER}/oauth/register`);
  assert.equal(as.revocation_endpoint, `${ISSUER}/oauth/revoke`);
  assert.deepEqual(as.response_types_supported, ['code']);
  assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(as.token_endpoint_auth_methods_supported, ['none']);
  assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
  assert.equal(as.authorization_response_iss_parameter_supported, true);
  assert.equal(as.client_id_metadata_document_supported, true);
  assert.ok((as.scopes_supported as string[]).includes('public.read'));
  const agent = as.agent_auth as Record<string, any>;
  assert.equal(agent.register_uri, `${ISSUER}/agent/auth`);
  assert.deepEqual(agent.identity_types_supported, ['identity_assertion']);
  assert.deepEqual(agent.identity_assertion.assertion_types_supported, ['verified_email']);
  assert.deepEqual(agent.credential_types_supported, ['api_key']);
  assert.deepEqual(agent.events_supported, ['credential.issued', 'credential.revoked']);
});

test('discovery: protected resource metadata (RFC 9728) for each surface, and every 401 points at its own', async () => {
  for (const surface of ['api', 'mcp', 'a2a']) {
    const resource = new URL(`${ISSUER}/${surface}`);
    const rs = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, o.http));
    assert.equal(rs.resource, `${ISSUER}/${surface}`);
    assert.deepEqual(rs.authorization_servers, [ISSUER]);
    assert.deepEqual(rs.bearer_methods_supported, ['header']);
  }
  const root = await oauth.processResourceDiscoveryResponse(new URL(ISSUER), await oauth.resourceDiscoveryRequest(new URL(ISSUER), o.http));
  assert.equal(root.resource, ISSUER);
  for (const [path, surface] of [
    ['/api/v1/matters', 'api'],
    ['/api/v2/matters', 'api'],
    ['/a2a', 'a2a'],
  ] as const) {
    const res = await o.http[oauth.customFetch](`${ISSUER}${path}`, { method: path === '/a2a' ? 'POST' : 'GET' });
    assert.equal(res.status, 401, path);
    assert.match(res.headers.get('www-authenticate')!, new RegExp(`resource_metadata="${ISSUER}/\\.well-known/oauth-protected-resource/${surface}"`), path);
    await res.body?.cancel();
  }
});

test('registration, consent, code exchange with PKCE: a cto_ token with the default scope that works on the API, and its refresh token rotates', async () => {
  const client = await registerClient(o);
  assert.match(client.client_id, /^ctc_/);
  const browser = await o.signIn('flow@example.org');
  const a = await authorize(o, browser, client);
  // RFC 9207: the issuer comes back with the code; oauth4webapi checks it and the state.
  assert.equal(a.callback.searchParams.get('iss'), ISSUER);
  assert.equal(a.callback.searchParams.get('state'), a.state);
  const tokens = await exchange(o, client, a);
  assert.match(tokens.access_token, /^cto_[0-9A-Za-z]{32}$/);
  assert.match(tokens.refresh_token!, /^ctr_[0-9A-Za-z]{32}$/);
  assert.equal(tokens.token_type, 'bearer');
  assert.equal(tokens.expires_in, 3600);
  assert.equal(tokens.scope, 'public.read public.ai');
  assert.equal(tokens.org_id, undefined);

  const me = await callWith(o, '/api/v2/me', tokens.access_token);
  assert.equal(me.status, 200);
  assert.equal(me.body.account.email, 'flow@example.org');
  assert.equal(me.body.credential.type, 'oauth');
  assert.equal(me.body.credential.name, 'Test Agent');
  assert.deepEqual(me.body.scopes, ['public.read', 'public.ai']);

  // Hashed at rest: neither value is stored.
  const stored = await o.t.ctx.db.selectFrom('oauth_tokens').select('hash').execute();
  assert.ok(stored.length >= 2);
  for (const row of stored) assert.equal(row.hash.length, 32);

  const rotated = await refresh(o, client, tokens.refresh_token!);
  assert.notEqual(rotated.refresh_token, tokens.refresh_token);
  assert.notEqual(rotated.access_token, tokens.access_token);
  assert.equal(rotated.scope, 'public.read public.ai');
  assert.equal((await callWith(o, '/api/v1/me', rotated.access_token)).status, 200);

  // Narrowing is allowed; widening is invalid_scope and changes nothing.
  const narrow = await refresh(o, client, rotated.refresh_token!, { scope: 'public.read' });
  assert.equal(narrow.scope, 'public.read');
  await assert.rejects(refresh(o, client, narrow.refresh_token!, { scope: 'public.read me.follows.read' }), (err: any) => err.error === 'invalid_scope');
  const still = await refresh(o, client, narrow.refresh_token!);
  assert.equal(still.scope, 'public.read public.ai', 'the refresh token keeps the grant scope (RFC 6749 §6)');
});

test('a rotated refresh token presented again revokes the whole grant (RFC 9700 §4.14.2)', async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('reuse@example.org');
  const first = await exchange(o, client, await authorize(o, browser, client));
  const second = await refresh(o, client, first.refresh_token!);
  assert.equal((await callWith(o, '/api/v1/me', second.access_token)).status, 200);
  await assert.rejects(refresh(o, client, first.refresh_token!), (err: any) => err.error === 'invalid_grant' && /revoked/.test(err.error_description));
  // Everything the grant issued is dead: the newest access token and the newest refresh token.
  const denied = await callWith(o, '/api/v1/me', second.access_token);
  assert.equal(denied.status, 401);
  assert.match(denied.headers.get('www-authenticate')!, /error="invalid_token"/);
  await assert.rejects(refresh(o, client, second.refresh_token!), (err: any) => err.error === 'invalid_grant');
});

test('a replayed authorization code is refused and revokes what its first use issued', async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('replay@example.org');
  const a = await authorize(o, browser, client);
  const tokens = await exchange(o, client, a);
  await assert.rejects(exchange(o, client, a), (err: any) => err.error === 'invalid_grant');
  assert.equal((await callWith(o, '/api/v1/me', tokens.access_token)).status, 401);
  await assert.rejects(refresh(o, client, tokens.refresh_token!), (err: any) => err.error === 'invalid_grant');
});

test('revocation (RFC 7009): an access token alone, or a refresh token with its whole grant; unknown tokens answer 200', async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('revoke@example.org');
  const tokens = await exchange(o, client, await authorize(o, browser, client));
  await oauth.processRevocationResponse(await oauth.revocationRequest(o.as, client, oauth.None(), tokens.access_token, o.http));
  assert.equal((await callWith(o, '/api/v1/me', tokens.access_token)).status, 401);
  const again = await refresh(o, client, tokens.refresh_token!);
  assert.equal((await callWith(o, '/api/v1/me', again.access_token)).status, 200, 'the grant outlives one access token');
  await oauth.processRevocationResponse(await oauth.revocationRequest(o.as, client, oauth.None(), again.refresh_token!, o.http));
  assert.equal((await callWith(o, '/api/v1/me', again.access_token)).status, 401, 'revoking the refresh token ends the grant');
  await oauth.processRevocationResponse(await oauth.revocationRequest(o.as, client, oauth.None(), 'cto_unknown', o.http));
});

test('Deny sends access_denied back to the client with state and iss', async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('deny@example.org');
  const a = await authorize(o, browser, client, { decision: 'deny' });
  assert.equal(a.callback.searchParams.get('error'), 'access_denied');
  assert.equal(a.callback.searchParams.get('iss'), ISSUER);
  assert.throws(
    () => oauth.validateAuthResponse(o.as, client, a.callback, a.state),
    (err: any) => err.error === 'access_denied',
  );
  const grants = await o.t.ctx.db.selectFrom('oauth_codes').select('hash').where('client_id', '=', client.client_id).execute();
  assert.equal(grants.length, 0, 'no code was made');
});
