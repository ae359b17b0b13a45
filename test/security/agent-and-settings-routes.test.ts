// The security cases of the routes outside the operation catalogue that agent registration,
// webhooks and the security log add: each is listed here (and must exist), and each refuses a
// caller without the right credential or session, without its CSRF token, or acting on another
// account's endpoint, and changes nothing when it refuses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { accountActor } from '../helpers/actors.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { signIn } from '../surfaces/v2/team-helpers.ts';
import { Browser, csrfOf } from '../surfaces/web/browser.ts';

const clock = new ManualClock();
let t: TestContext;
before(async () => {
  t = await startTestContext({ clock });
});
after(() => t.close());

const routes = [
  { method: 'POST', url: '/agent/auth', who: 'anyone (limited per address and client)' },
  { method: 'POST', url: '/agent/auth/claim', who: 'the holder of the claim token' },
  { method: 'POST', url: '/agent/auth/revoke', who: 'a registration key, as Bearer' },
  { method: 'GET', url: '/agents/approve', who: 'anyone with the mailed link; decides nothing' },
  { method: 'POST', url: '/agents/approve', who: 'the approval page (CSRF)' },
  { method: 'GET', url: '/account/webhooks', who: 'the signed-in person' },
  { method: 'POST', url: '/account/webhooks', who: 'the signed-in person (CSRF)' },
  { method: 'POST', url: '/account/webhooks/:endpointId/delete', who: 'the endpoint owner (CSRF)' },
  { method: 'GET', url: '/account/security', who: 'the signed-in person' },
] as const;

test('every route of the table exists', () => {
  for (const r of routes) assert.ok(t.app.hasRoute({ method: r.method, url: r.url }), `${r.method} ${r.url}`);
});

test('the settings pages need a session; their POSTs need the session and its CSRF token', async () => {
  for (const url of ['/account/webhooks', '/account/security']) {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 303, url);
    assert.equal(res.headers.location, '/signin');
  }
  const anon = await t.app.inject({
    method: 'POST',
    url: '/account/webhooks',
    payload: 'url=https%3A%2F%2Fexample.com%2F',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(anon.statusCode, 403);
  const owner = await t.ctx.services.accounts.create({ email: `sec-owner-${crypto.randomUUID()}@example.org` });
  const browser = new Browser(t.app);
  browser.jar.set('ct_session', await signIn(t, owner.email));
  const noToken = await browser.request('POST', '/account/webhooks', { url: 'https://example.com/' });
  assert.equal(noToken.status, 403);
  const wrongToken = await browser.request('POST', '/account/webhooks', { url: 'https://example.com/', _csrf: 'forged' });
  assert.equal(wrongToken.status, 403);
  const crossSite = await browser.request(
    'POST',
    '/account/webhooks',
    { url: 'https://example.com/', _csrf: csrfOf((await browser.request('GET', '/account/webhooks')).body) },
    { 'sec-fetch-site': 'cross-site' },
  );
  assert.equal(crossSite.status, 403);
  assert.deepEqual((await t.ctx.services.webhooks.list(accountActor(owner.id))).endpoints, []);
});

test('an endpoint of another account is not found, and stays', async () => {
  const owner = await t.ctx.services.accounts.create({ email: `sec-a-${crypto.randomUUID()}@example.org` });
  const other = await t.ctx.services.accounts.create({ email: `sec-b-${crypto.randomUUID()}@example.org` });
  // Stored directly: no outbound check is needed to test who may delete it.
  await t.ctx.db
    .insertInto('webhook_endpoints')
    .values({ id: 'whe_theirs', account_id: owner.id, url: 'https://theirs.example/hook', secret: 'whsec_x' })
    .execute();
  const browser = new Browser(t.app);
  browser.jar.set('ct_session', await signIn(t, other.email));
  const page = await browser.request('GET', '/account/webhooks');
  assert.doesNotMatch(page.body, /theirs\.example/);
  const res = await browser.request('POST', '/account/webhooks/whe_theirs/delete', { _csrf: csrfOf(page.body) });
  assert.equal(res.status, 404);
  assert.equal((await t.ctx.services.webhooks.list(accountActor(owner.id))).endpoints.length, 1);
});

test('the revocation endpoint refuses no credential, an unknown, revoked or expired key, each with a Bearer challenge', async () => {
  const person = await t.ctx.services.accounts.create({ email: `sec-r-${crypto.randomUUID()}@example.org` });
  const keys = t.ctx.services.credentials.keys;
  const revoked = await keys.create({ accountId: person.id, name: 'r', scopes: ['public.read', 'public.ai'], kind: 'registration' });
  await keys.revoke(accountActor(person.id), { id: revoked.id });
  const expiring = await keys.create({
    accountId: person.id,
    name: 'e',
    scopes: ['public.read'],
    kind: 'registration',
    expiresAt: new Date(clock.now().getTime() + 60_000),
  });
  clock.advance(120_000);
  for (const auth of [
    undefined,
    'Bearer',
    'Bearer ctk_unknownunknownunknownunknown12',
    `Bearer ${revoked.key}`,
    `Bearer ${expiring.key}`,
    `Basic ${Buffer.from('a:b').toString('base64')}`,
  ]) {
    const res = await t.app.inject({ method: 'POST', url: '/agent/auth/revoke', headers: auth ? { authorization: auth } : {} });
    assert.equal(res.statusCode, 401, String(auth));
    assert.match(String(res.headers['www-authenticate']), /^Bearer resource_metadata=/);
    assert.equal(res.json().error, 'unauthorized');
  }
  // A registration key cannot be made with more than public.read public.ai.
  await assert.rejects(
    keys.create({ accountId: person.id, name: 'x', scopes: ['public.read', 'me.follows.read'], kind: 'registration' }),
    /registration key can hold only/,
  );
});
