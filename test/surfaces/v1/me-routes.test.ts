import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const clock = new ManualClock('2030-06-15T08:00:00Z');
let t: TestContext;
before(async () => {
  t = await startTestContext({ clock });
});
after(async () => {
  await t.close();
});

const me = (key: string, remoteAddress = '198.51.100.1') =>
  t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` }, remoteAddress });

test('GET /api/v1/me has the decisions.md shape for a team key', async () => {
  const { accounts, credentials } = t.ctx.services;
  const owner = await accounts.create({ email: 'me-owner@example.org', name: 'Olu Owner' });
  const team = await accounts.teams.create(operator, { name: 'Ward Watch', ownerAccountId: owner.id, features: ['team_data'] });
  const { id, key } = await credentials.keys.create({
    accountId: owner.id,
    teamId: team.id,
    name: 'dashboard script',
    scopes: ['public.read', 'team.notes.read'],
    expiresAt: '2031-01-01T00:00:00Z',
  });
  const res = await me(key);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'private, no-store');
  assert.deepEqual(res.json(), {
    account: { id: owner.id, email: 'me-owner@example.org', name: 'Olu Owner' },
    team: { id: team.id, name: 'Ward Watch', role: 'owner', features: ['team_data'] },
    credential: { id, type: 'api_key', name: 'dashboard script', scopes: ['public.read', 'team.notes.read'], expiresAt: '2031-01-01T00:00:00.000Z' },
    scopes: ['public.read', 'team.notes.read'],
    limits: { requestsPerDay: 5000, requestsPerMinute: 120, aiAnswersPerDay: 200 },
    usage: { requestsToday: 0, aiAnswersToday: 0, resetsAt: '2030-06-16T00:00:00.000Z' },
  });
});

test('GET /me is counted against the minute but not the day', async () => {
  const a = await t.ctx.services.accounts.create({ email: 'me-counts@example.org' });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: a.id, name: 'k', scopes: ['public.read'] });
  await me(key);
  const res = await me(key);
  assert.equal(res.json().usage.requestsToday, 0);
  assert.equal(res.headers['ratelimit-remaining'], '1000');
  assert.match(String(res.headers.ratelimit), /"minute";r=58;/);
  assert.deepEqual(res.json().team, null);
  assert.deepEqual(res.json().limits, { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 50 });
});

test('revoked and expired keys are 401 with WWW-Authenticate; a key outside its allowed IPs is 403', async () => {
  const { accounts, credentials } = t.ctx.services;
  const a = await accounts.create({ email: 'me-refused@example.org' });
  const revoked = await credentials.keys.create({ accountId: a.id, name: 'r', scopes: ['public.read'] });
  await credentials.keys.revoke(operator, { id: revoked.id });
  const expiring = await credentials.keys.create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: '2030-06-15T09:00:00Z' });
  const fenced = await credentials.keys.create({ accountId: a.id, name: 'f', scopes: ['public.read'], allowedIps: ['192.0.2.0/24', '2001:db8::/32'] });

  for (const res of [await me(revoked.key), await me('ctk_unknownunknownunknownunknown00')]) {
    assert.equal(res.statusCode, 401);
    assert.match(
      String(res.headers['www-authenticate']),
      /^Bearer resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/api", scope="public\.read public\.ai", error="invalid_token"/,
    );
    assert.equal(res.json().code, 'unauthorized');
  }
  assert.equal((await me(expiring.key)).statusCode, 200);
  clock.advance(2 * 60 * 60 * 1000);
  const expired = await me(expiring.key);
  assert.equal(expired.statusCode, 401);
  assert.match(expired.json().detail, /expired/);
  assert.ok(expired.headers['www-authenticate']);

  assert.equal((await me(fenced.key, '192.0.2.44')).statusCode, 200);
  assert.equal((await me(fenced.key, '::ffff:192.0.2.45')).statusCode, 200);
  assert.equal((await me(fenced.key, '2001:db8:1::1')).statusCode, 200);
  const outside = await me(fenced.key, '203.0.113.1');
  assert.equal(outside.statusCode, 403);
  assert.deepEqual(Object.keys(outside.json()).sort(), ['code', 'detail']);
  assert.equal(outside.json().code, 'ip_not_allowed');
  assert.equal((await me(fenced.key, '2001:db9::1')).statusCode, 403);
});

test('a demoted admin loses the scope on the next request', async () => {
  const { accounts, credentials } = t.ctx.services;
  const owner = await accounts.create({ email: 'me-o2@example.org' });
  const admin = await accounts.create({ email: 'me-a2@example.org' });
  const team = await accounts.teams.create(operator, { name: 'T2', ownerAccountId: owner.id });
  await accounts.members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
  const { key } = await credentials.keys.create({ accountId: admin.id, teamId: team.id, name: 'a', scopes: ['team.positions.write', 'team.positions.read'] });
  assert.deepEqual((await me(key)).json().scopes, ['team.positions.write', 'team.positions.read']);
  await accounts.members.setRole(operator, { teamId: team.id, accountId: admin.id, role: 'member' });
  const demoted = (await me(key)).json();
  assert.deepEqual(demoted.scopes, ['team.positions.read']);
  assert.deepEqual(demoted.credential.scopes, ['team.positions.write', 'team.positions.read']);
  assert.equal(demoted.team.role, 'member');
});
