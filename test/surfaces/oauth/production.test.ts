// Outside development a client_id must be an https URL on a public address: plain http and
// loopback, which tests use for local stand-ins, are refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext({ env: { NODE_ENV: 'production' } });
});
after(async () => {
  await t?.close();
});

test('in production, http and loopback client ID metadata documents are refused before any fetch', async () => {
  const resolve = (id: string) => t.ctx.services.oauth.clients.resolve(id);
  for (const id of ['http://127.0.0.1:9/client.json', 'https://127.0.0.1:9/client.json', 'https://localhost:9/client.json', 'https://[::1]:9/client.json']) {
    await assert.rejects(resolve(id), (err: any) => err.protocolCode === 'invalid_client', id);
  }
  assert.equal((await t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length, 0);
});
