// One authorization code redeemed many times at once over HTTP (RFC 6749 §4.1.2, OAuth 2.1
// §4.1.3): exactly one redemption gets tokens, every other one is invalid_grant, and whatever
// order the redemptions ran in, the replays end with the first one's tokens revoked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { authorize, callWith, type OAuthTest, registerClient, startOAuthTest } from './helpers.ts';

let o: OAuthTest;
before(async () => {
  o = await startOAuthTest();
});
after(async () => {
  await o?.close();
});

/** POST /oauth/token as a form: the status and the JSON body. */
async function tokenRequest(form: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await o.http[oauth.customFetch](o.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.json() };
}

const TRIES = 12;
const ROUNDS = 3;

test(`${TRIES} concurrent redemptions of one code: one gets tokens, the rest are invalid_grant and revoke them`, async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('code-race@example.org');
  // Several codes, each raced: the redemptions interleave differently each time.
  for (let round = 0; round < ROUNDS; round++) {
    const a = await authorize(o, browser, client);
    const code = a.callback.searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, client_id: client.client_id, redirect_uri: a.redirectUri, code_verifier: a.verifier };
    const results = await Promise.all(Array.from({ length: TRIES }, () => tokenRequest(form)));

    const issued = results.filter((r) => r.status === 200);
    assert.equal(issued.length, 1, JSON.stringify(results));
    const refused = results.filter((r) => r.status !== 200);
    assert.equal(refused.length, TRIES - 1);
    for (const r of refused) {
      assert.equal(r.status, 400);
      assert.equal(r.body.error, 'invalid_grant');
    }

    // Every response is in: the tokens the one success carried no longer work.
    const tokens = issued[0]!.body as { access_token: string; refresh_token: string };
    assert.match(tokens.access_token, /^cto_/);
    assert.equal((await callWith(o, '/api/v2/me', tokens.access_token)).status, 401, `round ${round}: the access token was revoked`);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id });
    assert.equal(refreshed.status, 400, `round ${round}: the refresh token was revoked`);
    assert.equal(refreshed.body.error, 'invalid_grant');
  }
});

test('a replay presented after the first use has committed also revokes its tokens, and a fresh code still works', async () => {
  const client = await registerClient(o);
  const browser = await o.signIn('code-replay@example.org');
  const a = await authorize(o, browser, client);
  const form = {
    grant_type: 'authorization_code',
    code: a.callback.searchParams.get('code')!,
    client_id: client.client_id,
    redirect_uri: a.redirectUri,
    code_verifier: a.verifier,
  };
  const first = await tokenRequest(form);
  assert.equal(first.status, 200);
  assert.equal((await callWith(o, '/api/v2/me', first.body.access_token)).status, 200);
  const again = await tokenRequest(form);
  assert.equal(again.status, 400);
  assert.equal(again.body.error, 'invalid_grant');
  assert.equal((await callWith(o, '/api/v2/me', first.body.access_token)).status, 401);

  // The lock is per code: another code of the same client redeems normally.
  const b = await authorize(o, browser, client);
  const next = await tokenRequest({ ...form, code: b.callback.searchParams.get('code')!, code_verifier: b.verifier });
  assert.equal(next.status, 200);
  assert.equal((await callWith(o, '/api/v2/me', next.body.access_token)).status, 200);
});
