import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { makeAccount, makeTeam, rejectsWith } from './helpers.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

const keys = () => t.ctx.services.credentials.keys;

describe('making keys', () => {
  test('the value is ctk_ + 32 base62, stored only as its SHA-256, with the first 8 characters kept', async () => {
    const a = await makeAccount(t);
    const created = await keys().create({ accountId: a.id, name: 'laptop', scopes: ['public.read'] });
    assert.match(created.key, /^ctk_[0-9A-Za-z]{32}$/);
    assert.equal(created.apiKey.prefix, created.key.slice(0, 8));
    const row = (await sql<Record<string, unknown>>`select * from api_keys where id = ${created.id}`.execute(t.ctx.db)).rows[0]!;
    assert.deepEqual(Buffer.from(row.hash as Buffer), createHash('sha256').update(created.key).digest());
    // Nothing stored holds the value itself.
    const stored = JSON.stringify(row, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('latin1') : v));
    assert.ok(!stored.includes(created.key.slice(4)), 'the key value must not be stored');
    // Nor is it returned again.
    const listed = await keys().list(accountActor(a.id), { accountId: a.id });
    assert.equal(listed.length, 1);
    assert.ok(!JSON.stringify(listed).includes(created.key.slice(4)));
    assert.ok(!JSON.stringify(await keys().get(operator, created.id)).includes(created.key.slice(4)));
    assert.deepEqual(Object.keys(listed[0]!).sort(), [
      'allowedIps',
      'createdAt',
      'createdBy',
      'expiresAt',
      'id',
      'kind',
      'lastUsedAt',
      'name',
      'owner',
      'prefix',
      'revokedAt',
      'revokedReason',
      'scopes',
    ]);
    // Two keys never share a value.
    const other = await keys().create({ accountId: a.id, name: 'phone', scopes: ['public.read'] });
    assert.notEqual(other.key, created.key);
  });

  test('a personal key holds public.* and me.* only; a team key public.*, team.* and people.* only', async () => {
    const a = await makeAccount(t);
    const { admin, team } = await makeTeam(t);
    await keys().create({ accountId: a.id, name: 'p', scopes: ['public.read', 'public.ai', 'me.follows.read', 'me.follows.write'] });
    await rejectsWith(
      keys().create({ accountId: a.id, name: 'p', scopes: ['team.notes.read'] }),
      'invalid_request',
      /personal key cannot hold team\.notes\.read/,
    );
    await rejectsWith(keys().create({ accountId: a.id, name: 'p', scopes: ['people.read'] }), 'invalid_request');
    await keys().create({ accountId: admin.id, teamId: team.id, name: 't', scopes: ['public.read', 'team.notes.write', 'people.read'] });
    await rejectsWith(
      keys().create({ accountId: admin.id, teamId: team.id, name: 't', scopes: ['me.follows.read'] }),
      'invalid_request',
      /team key cannot hold me\.follows\.read/,
    );
  });

  test('unknown or missing scopes are 400', async () => {
    const a = await makeAccount(t);
    await rejectsWith(keys().create({ accountId: a.id, name: 'p', scopes: ['public.write'] }), 'invalid_request', /unknown scope/);
    await rejectsWith(keys().create({ accountId: a.id, name: 'p', scopes: [] }), 'invalid_request');
    await rejectsWith(keys().create({ accountId: a.id, name: ' ', scopes: ['public.read'] }), 'invalid_request', /name/);
  });

  test('only team owners and admins make team keys, with scopes their role can grant', async () => {
    const { owner, admin, member, team } = await makeTeam(t, ['team_data']);
    const outsider = await makeAccount(t);
    await rejectsWith(keys().create({ accountId: member.id, teamId: team.id, name: 'm', scopes: ['team.notes.read'] }), 'forbidden');
    await rejectsWith(keys().create({ accountId: outsider.id, teamId: team.id, name: 'o', scopes: ['team.notes.read'] }), 'not_found');
    // The operator cannot make one for a member either: it is a rule of the key, not of who asks.
    await rejectsWith(keys().create({ by: operator, accountId: member.id, teamId: team.id, name: 'm', scopes: ['public.read'] }), 'forbidden');
    await keys().create({ accountId: owner.id, teamId: team.id, name: 'o', scopes: ['team.positions.write'] });
    await keys().create({ by: operator, accountId: admin.id, teamId: team.id, name: 'a', scopes: ['team.follows.write'] });
    // people.private.read needs the offices feature.
    await rejectsWith(
      keys().create({ accountId: owner.id, teamId: team.id, name: 'o', scopes: ['people.private.read'] }),
      'invalid_request',
      /people\.private\.read/,
    );
    await t.ctx.services.accounts.teams.setFeatures(operator, { teamId: team.id, enable: ['offices'] });
    await keys().create({ accountId: owner.id, teamId: team.id, name: 'o', scopes: ['people.read', 'people.private.read'] });
  });

  test('an account makes keys only for itself', async () => {
    const a = await makeAccount(t);
    const b = await makeAccount(t);
    await rejectsWith(keys().create({ by: accountActor(b.id), accountId: a.id, name: 'x', scopes: ['public.read'] }), 'forbidden');
    await rejectsWith(keys().create({ by: operator, accountId: 'acc_missing', name: 'x', scopes: ['public.read'] }), 'not_found');
  });

  test('expiry must be a future ISO 8601 date-time', async () => {
    const a = await makeAccount(t);
    const k = await keys().create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: '2999-01-31T12:00:00Z' });
    assert.equal(k.apiKey.expiresAt, '2999-01-31T12:00:00.000Z');
    await rejectsWith(keys().create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: '2001-01-01T00:00:00Z' }), 'invalid_request', /future/);
    await rejectsWith(keys().create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: 'next tuesday' }), 'invalid_request', /ISO 8601/);
    await rejectsWith(keys().create({ accountId: a.id, name: 'e', scopes: ['public.read'], expiresAt: '2999-02-31T00:00:00Z' }), 'invalid_request');
  });

  test('allowed IPs are validated and stored in canonical form', async () => {
    const a = await makeAccount(t);
    const k = await keys().create({
      accountId: a.id,
      name: 'ips',
      scopes: ['public.read'],
      allowedIps: ['203.0.113.7', '10.1.2.3/8', '2001:DB8::/32', '::ffff:192.0.2.1', '::ffff:198.51.100.0/120', '2001:db8:0:0:0:0:0:1', '203.0.113.7'],
    });
    assert.deepEqual(k.apiKey.allowedIps, ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32', '192.0.2.1', '198.51.100.0/24', '2001:db8::1']);
    for (const bad of ['10.0.0.256', '10.0.0.0/33', '10.1', '0x0a.0.0.1', 'fe80::1%eth0', '2001:db8::/129', 'localhost', '10.0.0.0/', '10.0.0.0/-1']) {
      await rejectsWith(keys().create({ accountId: a.id, name: 'ips', scopes: ['public.read'], allowedIps: [bad] }), 'invalid_request', /allowed IPs/);
    }
  });
});

describe('managing keys', () => {
  test('rename, change expiry and allowed IPs, then revoke; a revoked key cannot be changed', async () => {
    const a = await makeAccount(t);
    const { id } = await keys().create({ accountId: a.id, name: 'old', scopes: ['public.read'] });
    const me = accountActor(a.id);
    assert.equal((await keys().rename(me, { id, name: 'new' })).name, 'new');
    assert.equal((await keys().setExpiry(me, { id, expiresAt: '2998-05-01' })).expiresAt, '2998-05-01T00:00:00.000Z');
    assert.equal((await keys().setExpiry(me, { id, expiresAt: null })).expiresAt, null);
    assert.deepEqual((await keys().setAllowedIps(me, { id, allowedIps: ['192.0.2.0/24'] })).allowedIps, ['192.0.2.0/24']);
    await rejectsWith(keys().setAllowedIps(me, { id, allowedIps: ['nope'] }), 'invalid_request');
    const revoked = await keys().revoke(me, { id });
    assert.ok(revoked.revokedAt);
    assert.equal(revoked.revokedReason, 'revoked by its creator');
    await rejectsWith(keys().rename(me, { id, name: 'again' }), 'invalid_request', /revoked/);
    assert.deepEqual(await keys().list(me, { accountId: a.id }), []);
    assert.equal((await keys().list(me, { accountId: a.id, includeRevoked: true })).length, 1);
  });

  test('team owners and admins see, edit and revoke every key of their team; others see nothing', async () => {
    const { owner, admin, member, team } = await makeTeam(t);
    const stranger = await makeAccount(t);
    const ownersKey = await keys().create({ accountId: owner.id, teamId: team.id, name: 'owner key', scopes: ['team.notes.read'] });
    const personal = await keys().create({ accountId: owner.id, name: 'personal', scopes: ['public.read'] });
    const seenByAdmin = await keys().list(accountActor(admin.id), { teamId: team.id });
    assert.deepEqual(
      seenByAdmin.map((k) => k.id),
      [ownersKey.id],
    );
    assert.deepEqual(seenByAdmin[0]!.owner, { type: 'team', teamId: team.id, teamName: team.name });
    await rejectsWith(keys().list(accountActor(member.id), { teamId: team.id }), 'not_found');
    await rejectsWith(keys().get(accountActor(stranger.id), ownersKey.id), 'not_found');
    await rejectsWith(keys().revoke(accountActor(member.id), { id: ownersKey.id }), 'not_found');
    // The team's admins have no say over the owner's personal keys.
    await rejectsWith(keys().revoke(accountActor(admin.id), { id: personal.id }), 'not_found');
    assert.equal((await keys().rename(accountActor(admin.id), { id: ownersKey.id, name: 'renamed by admin' })).name, 'renamed by admin');
    assert.equal((await keys().revoke(accountActor(admin.id), { id: ownersKey.id })).revokedReason, 'revoked by a team owner or admin');
    await rejectsWith(keys().revoke(operator, { id: 'key_missing' }), 'not_found');
  });

  test('removing a member revokes the team keys they made, in the same change', async () => {
    const { owner, admin, team } = await makeTeam(t);
    const adminsTeamKey = await keys().create({ accountId: admin.id, teamId: team.id, name: 'a', scopes: ['team.notes.read'] });
    const adminsPersonal = await keys().create({ accountId: admin.id, name: 'p', scopes: ['public.read'] });
    const ownersKey = await keys().create({ accountId: owner.id, teamId: team.id, name: 'o', scopes: ['team.notes.read'] });
    await t.ctx.services.accounts.members.remove(operator, { teamId: team.id, accountId: admin.id });
    const gone = await keys().get(operator, adminsTeamKey.id);
    assert.ok(gone.revokedAt);
    assert.equal(gone.revokedReason, 'its creator left the team');
    assert.equal((await keys().get(operator, adminsPersonal.id)).revokedAt, null);
    assert.equal((await keys().get(operator, ownersKey.id)).revokedAt, null);
  });
});
