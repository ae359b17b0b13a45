// v2's key routes with keys of each role: owners and admins list, make, change and revoke the
// team's keys; members list the team keys they made and are 403 forbidden for every change;
// another team's key is 404; a key never makes a key with more power than its own; keys issued
// by agent registration never hold the settings scopes; a stored idempotent answer never keeps a
// new key's value.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Scope } from '../../../src/kernel/access.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { grantableScopes } from '../../../src/modules/credentials/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { makeAccount, makeTeam, rejectsWith } from '../../modules/credentials/helpers.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
let team: Awaited<ReturnType<typeof makeTeam>>;
let other: Awaited<ReturnType<typeof makeTeam>>;
const settings: Scope[] = ['team.keys.read', 'team.keys.write', 'public.read', 'team.notes.read'];
const keyOf: Record<'owner' | 'admin' | 'member', string> = { owner: '', admin: '', member: '' };

before(async () => {
  t = await startTestContext();
  team = await makeTeam(t);
  other = await makeTeam(t);
  const { keys } = t.ctx.services.credentials;
  for (const role of ['owner', 'admin'] as const) {
    keyOf[role] = (await keys.create({ accountId: team[role].id, teamId: team.team.id, name: `${role} key`, scopes: settings })).key;
  }
  // A member can hold team.keys.read (to see the team keys they made), never team.keys.write.
  await rejectsWith(
    keys.create({ accountId: team.member.id, teamId: team.team.id, name: 'member', scopes: ['team.keys.write'] }),
    'forbidden',
    /Only team owners and admins can make team keys/,
  );
  await t.ctx.services.accounts.members.setRole(operator, { teamId: team.team.id, accountId: team.member.id, role: 'admin' });
  // The member made a key with team.keys.write while an admin: demoted, the key keeps the read and loses the write.
  const scopes: Scope[] = ['team.keys.read', 'team.keys.write', 'public.read'];
  keyOf.member = (await keys.create({ accountId: team.member.id, teamId: team.team.id, name: 'member key', scopes })).key;
  await t.ctx.services.accounts.members.setRole(operator, { teamId: team.team.id, accountId: team.member.id, role: 'member' });
});
after(async () => {
  await t.close();
});

function call(key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url: `/api/v2${url}`, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload ? { payload } : {}) });
}

test('owners and admins list every key of the team; a member only the team keys they made', async () => {
  for (const role of ['owner', 'admin'] as const) {
    const res = await call(keyOf[role], 'GET', '/team/keys');
    assert.equal(res.statusCode, 200, res.body);
    const names = res.json().data.map((k: { name: string }) => k.name);
    assert.deepEqual([...names].sort(), ['admin key', 'member key', 'owner key']);
    assert.equal(res.body.includes(keyOf.owner), false, 'a list never shows a value');
    assert.equal(res.headers['cache-control'], 'private, no-store');
  }
  const mine = await call(keyOf.member, 'GET', '/team/keys');
  assert.equal(mine.statusCode, 200, mine.body);
  assert.deepEqual(
    mine.json().data.map((k: { name: string }) => k.name),
    ['member key'],
  );
});

test('lists page by limit and cursor, newest first', async () => {
  const first = (await call(keyOf.owner, 'GET', '/team/keys?limit=2')).json();
  assert.equal(first.data.length, 2);
  assert.ok(first.meta.nextCursor);
  const second = (await call(keyOf.owner, 'GET', `/team/keys?limit=2&cursor=${first.meta.nextCursor}`)).json();
  assert.equal(second.data.length, 1);
  assert.equal(second.meta.nextCursor, null);
  assert.deepEqual(
    [...first.data, ...second.data].map((k: { name: string }) => k.name),
    ['member key', 'admin key', 'owner key'],
  );
  const bad = await call(keyOf.owner, 'GET', '/team/keys?cursor=not-ours');
  assert.equal(bad.statusCode, 400);
});

test('an admin makes, changes and revokes a team key; a member is 403 forbidden for each', async () => {
  const made = await call(keyOf.admin, 'POST', '/team/keys', { name: 'bot', scopes: ['public.read', 'team.notes.read'], allowedIps: ['203.0.113.0/24'] });
  assert.equal(made.statusCode, 201, made.body);
  const { id, key, apiKey } = made.json();
  assert.match(key, /^ctk_[0-9A-Za-z]{32}$/);
  assert.deepEqual(apiKey.owner, { type: 'team', teamId: team.team.id, teamName: team.team.name });
  assert.deepEqual(apiKey.allowedIps, ['203.0.113.0/24']);

  const changed = await call(keyOf.owner, 'PATCH', `/team/keys/${id}`, { name: 'renamed bot', expiresAt: '2099-01-01T00:00:00Z', allowedIps: [] });
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(changed.json().name, 'renamed bot');
  assert.equal(changed.json().expiresAt, '2099-01-01T00:00:00.000Z');
  assert.deepEqual(changed.json().allowedIps, []);
  assert.equal((await call(keyOf.owner, 'PATCH', `/team/keys/${id}`, {})).statusCode, 400, 'a change names at least one field');

  const me = (await call(keyOf.member, 'GET', '/me')).json();
  assert.deepEqual([...me.scopes].sort(), ['public.read', 'team.keys.read'], 'the demoted member holds the read, not the write');
  for (const [method, url, body] of [
    ['POST', '/team/keys', { name: 'sneaky', scopes: ['public.read'] }],
    ['PATCH', `/team/keys/${id}`, { name: 'hijacked' }],
    ['DELETE', `/team/keys/${id}`, undefined],
  ] as const) {
    const res = await call(keyOf.member, method, url, body);
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(res.json().error.code, 'forbidden');
  }
  const revoked = await call(keyOf.admin, 'DELETE', `/team/keys/${id}`);
  assert.equal(revoked.statusCode, 200, revoked.body);
  assert.ok(revoked.json().revokedAt);
  assert.equal((await call(key, 'GET', '/me')).statusCode, 401, 'a revoked key stops working');
  const log = await t.ctx.services.securityLog.read(accountActor(team.admin.id));
  assert.match(log[0]!.summary, /through the API/);
});

test("another team's key is 404 for every route that names it, and nothing changes", async () => {
  const { id } = await t.ctx.services.credentials.keys.create({ accountId: other.owner.id, teamId: other.team.id, name: 'theirs', scopes: ['public.read'] });
  assert.equal((await call(keyOf.owner, 'PATCH', `/team/keys/${id}`, { name: 'mine now' })).statusCode, 404);
  assert.equal((await call(keyOf.owner, 'DELETE', `/team/keys/${id}`)).json().error.code, 'not_found');
  const still = await t.ctx.services.credentials.keys.get(operator, id);
  assert.equal(still.name, 'theirs');
  assert.equal(still.revokedAt, null);
});

test('a key never makes a key with more power than its own', async () => {
  // The admin's key holds team.keys.write, public.read, team.keys.read and team.notes.read only.
  const wider = await call(keyOf.admin, 'POST', '/team/keys', { name: 'wider', scopes: ['public.read', 'team.notes.write'] });
  assert.equal(wider.statusCode, 403, wider.body);
  assert.equal(wider.json().error.code, 'forbidden');
  assert.match(wider.json().error.message, /team\.notes\.write/);
  const narrower = await call(keyOf.admin, 'POST', '/team/keys', { name: 'narrower', scopes: ['team.notes.read', 'team.keys.write'] });
  assert.equal(narrower.statusCode, 201, narrower.body);
  const made = narrower.json().key as string;
  // The new key cannot climb back up either.
  const again = await call(made, 'POST', '/team/keys', { name: 'again', scopes: ['public.read'] });
  assert.equal(again.statusCode, 403, again.body);
  // A personal key with me.keys.write makes personal keys within its own scopes only.
  const solo = await makeAccount(t);
  const personal = (await t.ctx.services.credentials.keys.create({ accountId: solo.id, name: 'p', scopes: ['me.keys.write', 'public.read'] })).key;
  assert.equal((await call(personal, 'POST', '/me/keys', { name: 'x', scopes: ['me.follows.write'] })).statusCode, 403);
  const ok = await call(personal, 'POST', '/me/keys', { name: 'x', scopes: ['public.read'] });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.deepEqual(ok.json().apiKey.owner, { type: 'personal' });
});

test('keys issued by agent registration can never hold the settings scopes', async () => {
  const settingsScopes: Scope[] = ['me.keys.read', 'me.keys.write', 'me.webhooks.read', 'me.webhooks.write'];
  assert.deepEqual(grantableScopes('registration', null, null), ['public.read', 'public.ai']);
  const solo = await makeAccount(t);
  for (const scope of settingsScopes) {
    await rejectsWith(
      t.ctx.services.credentials.keys.create({ accountId: solo.id, name: 'agent', kind: 'registration', scopes: ['public.read', scope] }),
      'invalid_request',
      /registration key can hold only public\.read and public\.ai/,
    );
  }
  const agent = (await t.ctx.services.credentials.keys.create({ accountId: solo.id, name: 'agent', kind: 'registration', scopes: ['public.read'] })).key;
  const res = await call(agent, 'POST', '/me/keys', { name: 'escalate', scopes: ['public.read'] });
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().error.code, 'scope_missing');
});

test('the settings scopes a role may hold: writes for owners and admins, reads (and leaving) for every member', () => {
  const f = { features: [] };
  assert.ok(grantableScopes('scoped', f, 'admin').includes('team.keys.write'));
  assert.ok(grantableScopes('scoped', f, 'admin').includes('team.members.write'));
  assert.ok(!grantableScopes('scoped', f, 'member').includes('team.keys.write'));
  // A member holds team.members.write to leave the team; the accounts policy refuses them anything else.
  assert.ok(grantableScopes('scoped', f, 'member').includes('team.members.write'));
  assert.ok(grantableScopes('scoped', f, 'member').includes('team.keys.read'));
  assert.ok(grantableScopes('scoped', f, 'member').includes('team.members.read'));
  assert.deepEqual(grantableScopes('scoped', f, null), []);
  assert.ok(grantableScopes('oauth', null, null).includes('me.webhooks.write'));
  assert.ok(!grantableScopes('scoped', null, null).includes('team.keys.read'), 'a personal credential holds no team scope');
});

test('an idempotent replay of a key creation answers the same key without its value', async () => {
  const headers = { 'idempotency-key': 'make-one-bot' };
  const first = await call(keyOf.owner, 'POST', '/team/keys', { name: 'once', scopes: ['public.read'] }, headers);
  assert.equal(first.statusCode, 201, first.body);
  const replay = await call(keyOf.owner, 'POST', '/team/keys', { name: 'once', scopes: ['public.read'] }, headers);
  assert.equal(replay.statusCode, 201);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json().id, first.json().id);
  assert.equal(replay.body.includes(first.json().key), false, 'the value is not kept');
  assert.match(replay.json().key, /^ctk_.{4}… \(shown once; not kept\)$/);
  const stored = await t.ctx.db.selectFrom('idempotency_keys').selectAll().execute();
  assert.equal(JSON.stringify(stored).includes(first.json().key), false);
});

test('a person reads their own keys, apps and security log with me.keys.read', async () => {
  const solo = await makeAccount(t);
  const { keys } = t.ctx.services.credentials;
  const reader = (await keys.create({ accountId: solo.id, name: 'reader', scopes: ['me.keys.read'] })).key;
  const list = await call(reader, 'GET', '/me/keys');
  assert.equal(list.statusCode, 200, list.body);
  assert.deepEqual(
    list.json().data.map((k: { name: string }) => k.name),
    ['reader'],
  );
  assert.deepEqual((await call(reader, 'GET', '/me/apps')).json(), { data: [] });
  const log = await call(reader, 'GET', '/me/security-log?limit=5');
  assert.equal(log.statusCode, 200, log.body);
  assert.equal(log.json().data[0].type, 'credential.issued');
  assert.equal((await call(reader, 'DELETE', `/me/keys/${list.json().data[0].id}`)).statusCode, 403, 'reading is not revoking');
  // A team key is a team credential: the personal routes are not for it.
  assert.equal((await call(keyOf.owner, 'GET', '/me/keys')).json().error.code, 'personal_only');
});
