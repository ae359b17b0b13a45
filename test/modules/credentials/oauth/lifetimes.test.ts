// Lifetimes on the service's clock: a code lives a minute, a replay after that still revokes what
// the first redemption issued, and refresh tokens end after REFRESH_TOKEN_TTL_SECONDS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../../src/kernel/clock.ts';
import { s256 } from '../../../../src/modules/credentials/oauth/index.ts';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';

const clock = new ManualClock();
let t: TestContext;
let accountId: string;
const REDIRECT = 'https://agent.example.net/cb';

before(async () => {
  t = await startTestContext({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: '600', REFRESH_TOKEN_TTL_SECONDS: '3600' } });
  accountId = (await t.ctx.services.accounts.create({ email: 'lifetimes@example.org' })).id;
});
after(async () => {
  await t?.close();
});

async function codeFor(clientId: string, verifier: string): Promise<string> {
  const oauth = t.ctx.services.oauth;
  const request = await oauth.authorize.check({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
  });
  return new URL(await oauth.approve(request, accountId, 'personal')).searchParams.get('code')!;
}

const rejects = (p: Promise<unknown>, code: string) => assert.rejects(p, (err: any) => err.protocolCode === code);

test('a code is good for a minute only; a replay after that still revokes its grant', async () => {
  const oauth = t.ctx.services.oauth;
  const { client_id } = await oauth.clients.register({ redirect_uris: [REDIRECT] }, '127.0.0.1');
  const verifier = 'v'.repeat(50);
  const late = await codeFor(client_id, verifier);
  clock.advance(61_000);
  await rejects(oauth.token({ grant_type: 'authorization_code', code: late, client_id, redirect_uri: REDIRECT, code_verifier: verifier }), 'invalid_grant');

  const code = await codeFor(client_id, verifier);
  const tokens = await oauth.token({ grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
  assert.equal(tokens.expires_in, 600);
  clock.advance(120_000);
  await rejects(oauth.token({ grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier }), 'invalid_grant');
  await assert.rejects(t.ctx.services.credentials.verify({ token: tokens.access_token, ip: '127.0.0.1', surface: 'api' }), /revoked/);
});

test('access tokens expire after ACCESS_TOKEN_TTL_SECONDS, refresh tokens after REFRESH_TOKEN_TTL_SECONDS', async () => {
  const oauth = t.ctx.services.oauth;
  const { client_id } = await oauth.clients.register({ redirect_uris: [REDIRECT] }, '127.0.0.1');
  const verifier = 'w'.repeat(50);
  const tokens = await oauth.token({
    grant_type: 'authorization_code',
    code: await codeFor(client_id, verifier),
    client_id,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  const verify = (token: string) => t.ctx.services.credentials.verify({ token, ip: '127.0.0.1', surface: 'api' });
  assert.equal((await verify(tokens.access_token)).credential.type, 'oauth');
  clock.advance(601_000);
  await assert.rejects(verify(tokens.access_token), /expired/);
  const next = await oauth.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id });
  assert.equal((await verify(next.access_token)).credential.type, 'oauth');
  clock.advance(3601_000);
  await rejects(oauth.token({ grant_type: 'refresh_token', refresh_token: next.refresh_token, client_id }), 'invalid_grant');
});
