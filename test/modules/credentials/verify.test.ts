import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { access, requireAccess } from '../../../src/kernel/access.ts';
import { type Actor, operator } from '../../../src/kernel/actor.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { makeAccount, makeTeam, rejectsWith } from './helpers.ts';

const clock = new ManualClock('2030-03-01T12:00:00Z');
let t: TestContext;
before(async () => {
  t = await startTestContext({ clock });
});
after(async () => {
  await t.close();
});

/**
 * The credential check, with its answer without waiting (verifyNow) asked first: when it answers,
 * it is verify's answer, the same Actor or the same refusal.
 */
async function verify(token: string, ip = '198.51.100.10'): Promise<Actor> {
  const input = { token, ip, surface: 'api' } as const;
  let now: { actor: Actor | undefined } | { refused: AppError };
  try {
    now = { actor: t.ctx.services.credentials.verifyNow(input) };
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    now = { refused: err };
  }
  try {
    const actor = await t.ctx.services.credentials.verify(input);
    assert.ok(!('refused' in now), `verifyNow refused what verify accepts: ${'refused' in now ? now.refused.message : ''}`);
    if (now.actor) assert.equal(now.actor, actor);
    return actor;
  } catch (err) {
    if ('refused' in now) assert.deepEqual([now.refused.code, now.refused.message], [(err as AppError).code, (err as AppError).message]);
    else assert.equal(now.actor, undefined, `verifyNow accepted what verify refuses: ${(err as Error).message}`);
    throw err;
  }
}
const keys = () => t.ctx.services.credentials.keys;

describe('refusals', () => {
  test('unknown, malformed, revoked and expired keys are 401 with the Bearer challenge', async () => {
    const a = await makeAccount(t);
    for (const token of ['ctk_doesnotexist00000000000000000000', 'not-a-key', '']) {
      const err = await rejectsWith(verify(token), 'unauthorized');
      assert.match(
        err.headers['WWW-Authenticate']!,
        /^Bearer resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/api", scope="public\.read public\.ai", error="invalid_token", error_description="[^"]+"$/,
      );
    }
    const revoked = await keys().create({ accountId: a.id, name: 'r', scopes: ['public.read'] });
    await verify(revoked.key);
    await keys().revoke(operator, { id: revoked.id });
    await rejectsWith(verify(revoked.key), 'unauthorized', /revoked/);

    const expiring = await keys().create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: '2030-03-01T13:00:00Z' });
    assert.equal((await verify(expiring.key)).credential.expiresAt?.toISOString(), '2030-03-01T13:00:00.000Z');
    clock.advance(60 * 60 * 1000);
    await rejectsWith(verify(expiring.key), 'unauthorized', /expired/);
    // A new expiry set later brings it back.
    await keys().setExpiry(operator, { id: expiring.id, expiresAt: '2031-01-01T00:00:00Z' });
    await verify(expiring.key);
    // The challenge names the surface the request came to.
    const mcp = await rejectsWith(t.ctx.services.credentials.verify({ token: revoked.key, ip: '::1', surface: 'mcp' }), 'unauthorized');
    assert.match(mcp.headers['WWW-Authenticate']!, /oauth-protected-resource\/mcp", scope=/);
  });
});

describe('allowed IPs', () => {
  async function keyFor(allowedIps: string[]) {
    const a = await makeAccount(t);
    return (await keys().create({ accountId: a.id, name: 'ip', scopes: ['public.read'], allowedIps })).key;
  }

  test('IPv4 addresses and CIDR ranges, edges included', async () => {
    const key = await keyFor(['203.0.113.7', '10.20.30.0/24']);
    for (const ip of ['203.0.113.7', '10.20.30.0', '10.20.30.255', '::ffff:10.20.30.9']) await verify(key, ip);
    for (const ip of ['203.0.113.8', '10.20.29.255', '10.20.31.0', '2001:db8::1', '']) {
      await rejectsWith(verify(key, ip), 'ip_not_allowed');
    }
  });

  test('IPv6 addresses and ranges, in any spelling', async () => {
    const key = await keyFor(['2001:db8:abcd::/48', '2001:0db8:0000:0000:0000:0000:0000:0001']);
    for (const ip of ['2001:db8::1', '2001:db8:abcd::', '2001:db8:abcd:ffff:ffff:ffff:ffff:ffff', '2001:DB8:ABCD:1::5']) await verify(key, ip);
    for (const ip of ['2001:db8::2', '2001:db8:abce::', '10.0.0.1']) await rejectsWith(verify(key, ip), 'ip_not_allowed');
  });

  test('an IPv4-mapped IPv6 entry matches the IPv4 caller; the list can be changed later', async () => {
    const a = await makeAccount(t);
    const { id, key } = await keys().create({ accountId: a.id, name: 'm', scopes: ['public.read'], allowedIps: ['::ffff:192.0.2.0/120'] });
    await verify(key, '192.0.2.200');
    await rejectsWith(verify(key, '192.0.3.1'), 'ip_not_allowed');
    await keys().setAllowedIps(operator, { id, allowedIps: ['192.0.3.0/24'] });
    await verify(key, '192.0.3.1');
    await keys().setAllowedIps(operator, { id, allowedIps: [] });
    await verify(key, '2001:db8::99');
  });
});

describe('live power', () => {
  test('a legacy key acts as public.read public.ai', async () => {
    const a = await makeAccount(t);
    const { key } = await keys().create({ accountId: a.id, name: 'legacy', scopes: null });
    const actor = await verify(key);
    assert.deepEqual(actor.scopes, ['public.read', 'public.ai']);
    assert.equal(actor.credential.kind, 'legacy');
  });

  test('a registration key never holds more than public.read public.ai', async () => {
    const a = await makeAccount(t);
    await rejectsWith(keys().create({ accountId: a.id, name: 'agent', scopes: ['me.follows.read'], kind: 'registration' }), 'invalid_request');
    const { key } = await keys().create({ accountId: a.id, name: 'agent', scopes: ['public.read', 'public.ai'], kind: 'registration' });
    assert.deepEqual((await verify(key)).scopes, ['public.read', 'public.ai']);
  });

  test('a personal key: the account, no team, the account limits', async () => {
    const a = await makeAccount(t);
    await t.ctx.services.accounts.setLimits(operator, { accountId: a.id, limits: { requestsPerMinute: 7 } });
    const { id, key } = await keys().create({ accountId: a.id, name: 'p', scopes: ['public.read', 'me.follows.read'] });
    const actor = await verify(key);
    assert.deepEqual(actor.account, { id: a.id, email: a.email, name: null });
    assert.equal(actor.team, null);
    assert.deepEqual(actor.credential, { id, type: 'api_key', name: 'p', kind: 'scoped', expiresAt: null, grantedScopes: ['public.read', 'me.follows.read'] });
    assert.deepEqual(actor.limitsOwner, { type: 'account', id: a.id });
    assert.deepEqual(actor.limits, { requestsPerDay: 1000, requestsPerMinute: 7, aiAnswersPerDay: 50 });
  });

  test('a team key: the team with the creator’s current role and features, and the team limits', async () => {
    const { admin, team } = await makeTeam(t, ['team_data', 'people']);
    await t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: { aiAnswersPerDay: 999 } });
    const { key } = await keys().create({ accountId: admin.id, teamId: team.id, name: 't', scopes: ['team.positions.write', 'team.notes.read'] });
    const actor = await verify(key);
    assert.deepEqual(actor.team, { id: team.id, name: team.name, role: 'admin', features: ['team_data', 'people'] });
    assert.deepEqual(actor.limitsOwner, { type: 'team', id: team.id });
    assert.deepEqual(actor.limits, { requestsPerDay: 5000, requestsPerMinute: 120, aiAnswersPerDay: 999 });
    assert.deepEqual(actor.scopes, ['team.positions.write', 'team.notes.read']);
  });

  test('a role lost drops the scopes it granted on the next call; regained, they return', async () => {
    const { admin, team } = await makeTeam(t);
    const { key } = await keys().create({
      accountId: admin.id,
      teamId: team.id,
      name: 't',
      scopes: ['team.positions.write', 'team.follows.write', 'team.notes.read'],
    });
    await t.ctx.services.accounts.members.setRole(operator, { teamId: team.id, accountId: admin.id, role: 'member' });
    const demoted = await verify(key);
    assert.equal(demoted.team?.role, 'member');
    assert.deepEqual(demoted.scopes, ['team.notes.read']);
    assert.deepEqual(demoted.credential.grantedScopes, ['team.positions.write', 'team.follows.write', 'team.notes.read']);
    await t.ctx.services.accounts.members.setRole(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
    assert.deepEqual((await verify(key)).scopes, ['team.positions.write', 'team.follows.write', 'team.notes.read']);
  });

  test('a feature removed bites on the next call', async () => {
    const { owner, team } = await makeTeam(t, ['people', 'offices']);
    const { key } = await keys().create({ accountId: owner.id, teamId: team.id, name: 't', scopes: ['people.read', 'people.private.read'] });
    assert.deepEqual((await verify(key)).scopes, ['people.read', 'people.private.read']);
    await t.ctx.services.accounts.teams.setFeatures(operator, { teamId: team.id, disable: ['offices'] });
    const actor = await verify(key);
    assert.deepEqual(actor.scopes, ['people.read']);
    assert.deepEqual(actor.team?.features, ['people']);
  });

  test('a creator removed from the team: their team keys are refused at once, and stay revoked', async () => {
    const { admin, team } = await makeTeam(t);
    const { key } = await keys().create({ accountId: admin.id, teamId: team.id, name: 't', scopes: ['team.notes.read'] });
    const personal = await keys().create({ accountId: admin.id, name: 'p', scopes: ['public.read'] });
    await verify(key);
    await t.ctx.services.accounts.members.remove(operator, { teamId: team.id, accountId: admin.id });
    await rejectsWith(verify(key), 'unauthorized', /revoked/);
    await t.ctx.services.accounts.members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
    await rejectsWith(verify(key), 'unauthorized', /revoked/);
    await verify(personal.key);
  });

  test('the scope check uses the live scopes', async () => {
    const { admin, team } = await makeTeam(t);
    const { key } = await keys().create({ accountId: admin.id, teamId: team.id, name: 't', scopes: ['public.read'] });
    requireAccess(await verify(key), access.open('public.read'));
    const a = await makeAccount(t);
    const noRead = await keys().create({ accountId: a.id, name: 'ai only', scopes: ['public.ai'] });
    await assert.rejects(async () => requireAccess(await verify(noRead.key), access.open('public.read')), /public\.read/);
  });
});

describe('last used', () => {
  test('is recorded on use, at most once a minute', async () => {
    const a = await makeAccount(t);
    const { id, key } = await keys().create({ accountId: a.id, name: 'u', scopes: ['public.read'] });
    const lastUsed = async () => (await keys().get(operator, id)).lastUsedAt;
    assert.equal(await lastUsed(), null);
    await verify(key);
    const first = clock.now().toISOString();
    assert.equal(await lastUsed(), first);
    clock.advance(30_000);
    await verify(key);
    assert.equal(await lastUsed(), first);
    clock.advance(31_000);
    await verify(key);
    assert.equal(await lastUsed(), clock.now().toISOString());
  });

  test('verifyNow answers only for a credential kept in memory whose last use needs no write', async () => {
    const a = await makeAccount(t);
    const { key } = await keys().create({ accountId: a.id, name: 'n', scopes: ['public.read'] });
    const now = () => t.ctx.services.credentials.verifyNow({ token: key, ip: '198.51.100.10', surface: 'api' });
    assert.equal(now(), undefined, 'not read yet');
    const actor = await verify(key);
    assert.equal(now(), actor);
    clock.advance(61_000);
    assert.equal(now(), undefined, 'its last use is due to be written');
    await verify(key);
    assert.equal(now(), actor);
  });
});

describe('the connection a value comes on', () => {
  test('each value presented on one connection is checked as itself, however many came before it', async () => {
    const [a, b] = [await makeAccount(t), await makeAccount(t)];
    const first = await keys().create({ accountId: a.id, name: 'one', scopes: ['public.read'] });
    const second = await keys().create({ accountId: b.id, name: 'two', scopes: ['public.read'] });
    const connection = {};
    const on = (token: string) => t.ctx.services.credentials.verify({ token, ip: '198.51.100.10', surface: 'api', connection });
    assert.equal((await on(first.key)).account.id, a.id);
    assert.equal((await on(first.key)).account.id, a.id);
    assert.equal((await on(second.key)).account.id, b.id);
    assert.equal((await on(first.key)).account.id, a.id);
    // One character off the value the connection presented last is another value: not valid.
    const last = first.key.at(-1) === 'a' ? 'b' : 'a';
    await rejectsWith(on(`${first.key.slice(0, -1)}${last}`), 'unauthorized', /not valid/);
    await keys().revoke(operator, { id: second.id });
    await on(second.key).then(
      () => assert.fail('a revoked key was accepted on a connection that presented it before'),
      (err: AppError) => assert.match(err.message, /revoked/),
    );
    // The same values on another connection, or on none, are checked the same.
    assert.equal((await t.ctx.services.credentials.verify({ token: first.key, ip: '198.51.100.10', surface: 'api', connection: {} })).account.id, a.id);
    await rejectsWith(verify(second.key), 'unauthorized', /revoked/);
  });
});
