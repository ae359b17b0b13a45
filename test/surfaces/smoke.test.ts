import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

test('an API route without a credential is 401 with WWW-Authenticate pointing at the resource metadata', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/me' });
  assert.equal(res.statusCode, 401);
  assert.match(
    String(res.headers['www-authenticate']),
    /^Bearer resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/api", scope="public\.read public\.ai"$/,
  );
  assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail']);
});

test('a credential in the URL is refused with 400', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/me?api_key=ctk_x' });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().code, 'invalid_request');
});

test('a key made by the accounts and credentials services authenticates', async () => {
  const account = await t.ctx.services.accounts.create({ email: 'smoke@example.org' });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'smoke', scopes: null });
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().account.email, 'smoke@example.org');
  const viaHeader = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-api-key': key } });
  assert.equal(viaHeader.statusCode, 200);
});
