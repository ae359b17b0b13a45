// Allowed IPs are checked against the real peer address; X-Forwarded-For is believed only from a
// configured trusted proxy (TRUST_PROXY), and then only up to the first hop that is not ours.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

async function keyFrom(t: TestContext, allowedIps: string[]): Promise<string> {
  const account = await t.ctx.services.accounts.create({ email: `ip-${Math.random().toString(36).slice(2)}@example.org` });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'ip', scopes: ['public.read'], allowedIps });
  return key;
}

async function status(t: TestContext, key: string, remoteAddress: string, forwardedFor?: string) {
  const res = await t.app.inject({
    url: '/api/v1/me',
    remoteAddress,
    headers: { authorization: `Bearer ${key}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });
  return res.statusCode === 403 ? res.json().code : res.statusCode;
}

describe('without a trusted proxy', () => {
  let t: TestContext;
  before(async () => {
    t = await startTestContext();
  });
  after(async () => t.close());

  test('X-Forwarded-For is ignored: the peer address decides', async () => {
    const key = await keyFrom(t, ['203.0.113.7']);
    assert.equal(await status(t, key, '127.0.0.1', '203.0.113.7'), 'ip_not_allowed');
    assert.equal(await status(t, key, '203.0.113.7'), 200);
    assert.equal(await status(t, key, '203.0.113.7', '198.51.100.1'), 200);
  });

  test('an IPv4 peer seen as IPv4-mapped IPv6 matches its IPv4 range; IPv6 ranges match at their edges', async () => {
    const v4 = await keyFrom(t, ['192.0.2.0/24']);
    assert.equal(await status(t, v4, '::ffff:192.0.2.255'), 200);
    assert.equal(await status(t, v4, '::ffff:192.0.3.0'), 'ip_not_allowed');
    const v6 = await keyFrom(t, ['2001:db8::/32']);
    assert.equal(await status(t, v6, '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'), 200);
    assert.equal(await status(t, v6, '2001:db9::'), 'ip_not_allowed');
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let t: TestContext;
  before(async () => {
    t = await startTestContext({ env: { TRUST_PROXY: '127.0.0.1,::1,10.0.0.0/8' } });
  });
  after(async () => t.close());

  test('the client is the nearest forwarded hop that is not one of our proxies', async () => {
    const key = await keyFrom(t, ['203.0.113.7']);
    assert.equal(await status(t, key, '127.0.0.1', '203.0.113.7'), 200);
    assert.equal(await status(t, key, '::1', '203.0.113.7, 10.1.2.3'), 200);
    // A client cannot smuggle an allowed address in front of its own.
    assert.equal(await status(t, key, '127.0.0.1', '203.0.113.7, 198.51.100.9'), 'ip_not_allowed');
  });

  test('a peer that is not a trusted proxy is believed only for itself', async () => {
    const key = await keyFrom(t, ['203.0.113.7']);
    assert.equal(await status(t, key, '198.51.100.9', '203.0.113.7'), 'ip_not_allowed');
  });
});
