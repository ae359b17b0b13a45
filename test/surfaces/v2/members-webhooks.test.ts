// /team/members and /me/webhooks over HTTP: the members operations for each role (owners manage
// everyone, admins everyone but owners, members only themselves), another team's member as 404,
// and a person's webhooks with a personal key — nothing refused changes anything.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Scope } from '../../../src/kernel/access.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { api, expectError, expectOk, makeTeam, personalKey, type Team } from './team-helpers.ts';

const members: Scope[] = ['team.members.read', 'team.members.write'];
const hooks: Scope[] = ['me.webhooks.read', 'me.webhooks.write'];
let t: TestContext;
let call: ReturnType<typeof api>;
let team: Team;
let other: Team;

before(async () => {
  t = await startTestContext({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  call = api(t);
  team = await makeTeam(t, [], members);
  other = await makeTeam(t, [], members);
});
after(async () => {
  await t.close();
});

const roles = async (of: Team) => Object.fromEntries(expectOk(await call(of.keys.owner, 'GET', '/team/members')).data.map((m: any) => [m.accountId, m.role]));
const newcomer = async () => t.ctx.services.accounts.create({ email: `newcomer-${crypto.randomUUID()}@example.org` });

test('owners list, add, change and remove members', async () => {
  const list = expectOk(await call(team.keys.owner, 'GET', '/team/members')).data;
  assert.deepEqual(Object.keys(list[0]).sort(), ['accountId', 'email', 'emailVerified', 'name', 'role', 'since']);
  assert.deepEqual(
    list.map((m: any) => [m.accountId, m.role]),
    [
      [team.owner, 'owner'],
      [team.admin, 'admin'],
      [team.member, 'member'],
    ],
  );
  const person = await newcomer();
  const added = expectOk(await call(team.keys.owner, 'POST', '/team/members', { email: person.email.toUpperCase(), role: 'admin' }), 201);
  assert.deepEqual([added.accountId, added.role], [person.id, 'admin']);
  expectError(await call(team.keys.owner, 'POST', '/team/members', { email: person.email, role: 'member' }), 409, 'conflict');
  expectError(await call(team.keys.owner, 'POST', '/team/members', { email: 'x,victim@example.org', role: 'member' }), 400, 'invalid_request');
  expectError(await call(team.keys.owner, 'POST', '/team/members', { email: person.email, role: 'emperor' }), 400, 'invalid_request', /role must be one of/);
  assert.equal(expectOk(await call(team.keys.owner, 'PATCH', `/team/members/${person.id}`, { role: 'member' })).role, 'member');
  assert.deepEqual(expectOk(await call(team.keys.owner, 'DELETE', `/team/members/${person.id}`)), { id: person.id, deleted: true });
  expectError(await call(team.keys.owner, 'DELETE', `/team/members/${person.id}`), 404, 'not_found');
  assert.equal((await roles(team))[person.id], undefined);
});

test('a member sees the list but every change of someone else is 403 forbidden, and nothing changes', async () => {
  const before = await roles(team);
  const person = await newcomer();
  assert.equal(expectOk(await call(team.keys.member, 'GET', '/team/members')).data.length, Object.keys(before).length);
  expectError(await call(team.keys.member, 'POST', '/team/members', { email: person.email, role: 'member' }), 403, 'forbidden');
  expectError(await call(team.keys.member, 'PATCH', `/team/members/${team.admin}`, { role: 'member' }), 403, 'forbidden');
  expectError(await call(team.keys.member, 'PATCH', `/team/members/${team.member}`, { role: 'owner' }), 403, 'forbidden');
  expectError(await call(team.keys.member, 'DELETE', `/team/members/${team.owner}`), 403, 'forbidden');
  assert.deepEqual(await roles(team), before);
});

test('an admin manages admins and members but cannot make, change or remove an owner', async () => {
  const person = await newcomer();
  expectError(await call(team.keys.admin, 'POST', '/team/members', { email: person.email, role: 'owner' }), 403, 'forbidden', /Only team owners/);
  expectError(await call(team.keys.admin, 'PATCH', `/team/members/${team.member}`, { role: 'owner' }), 403, 'forbidden');
  expectError(await call(team.keys.admin, 'PATCH', `/team/members/${team.owner}`, { role: 'member' }), 403, 'forbidden');
  expectError(await call(team.keys.admin, 'DELETE', `/team/members/${team.owner}`), 403, 'forbidden');
  assert.equal((await roles(team))[team.owner], 'owner');
  assert.equal(expectOk(await call(team.keys.admin, 'POST', '/team/members', { email: person.email, role: 'member' }), 201).role, 'member');
  assert.equal(expectOk(await call(team.keys.admin, 'PATCH', `/team/members/${person.id}`, { role: 'admin' })).role, 'admin');
});

test("another team's member is 404 not_found, and stays as they were", async () => {
  expectError(await call(team.keys.owner, 'PATCH', `/team/members/${other.member}`, { role: 'admin' }), 404, 'not_found');
  expectError(await call(team.keys.owner, 'DELETE', `/team/members/${other.member}`), 404, 'not_found');
  expectError(await call(team.keys.owner, 'DELETE', '/team/members/acc_nobody'), 404, 'not_found');
  assert.equal((await roles(other))[other.member], 'member');
});

test('the last owner cannot leave; a member may leave, and the team is then gone for them', async () => {
  expectError(await call(other.keys.owner, 'DELETE', `/team/members/${other.owner}`), 400, 'invalid_request', /at least one owner/);
  assert.deepEqual(expectOk(await call(other.keys.member, 'DELETE', `/team/members/${other.member}`)), { id: other.member, deleted: true });
  assert.equal((await roles(other))[other.member], undefined);
  expectError(await call(other.keys.member, 'GET', '/team/members'), 404, 'not_found');
});

test('members routes need a team credential; webhooks routes a personal one', async () => {
  const { key } = await personalKey(t, hooks);
  expectError(await call(key, 'GET', '/team/members'), 403, 'team_only');
  expectError(await call(team.keys.owner, 'GET', '/me/webhooks'), 403, 'personal_only');
  const readOnly = await personalKey(t, ['me.webhooks.read']);
  expectError(await call(readOnly.key, 'POST', '/me/webhooks', { url: 'https://example.org/hook' }), 403, 'scope_missing', /me\.webhooks\.write/);
});

test('a personal key adds a webhook (secret shown once), lists it and its deliveries, and deletes it', async () => {
  const { key, accountId } = await personalKey(t, hooks);
  const url = 'http://127.0.0.1:9/hooks/council';
  const created = expectOk(await call(key, 'POST', '/me/webhooks', { url }), 201);
  assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.equal(created.endpoint.url, url);
  assert.equal(created.endpoint.secretPrefix, created.secret.slice(0, 12));
  const listed = expectOk(await call(key, 'GET', '/me/webhooks')).data;
  assert.deepEqual(listed, [created.endpoint]);
  assert.ok(!JSON.stringify(listed).includes(created.secret));
  expectError(await call(key, 'POST', '/me/webhooks', { url: 'ftp://example.org/hook' }), 400, 'invalid_request', /https/);
  // Filed in the caller's own statement, so the delivery waits for the queue's sweep (none runs here).
  await t.ctx.services.webhooks.publish(accountId, { id: 'evt_members_1', type: 'credential.issued', data: {} }, { within: t.ctx.db });
  const [delivery] = expectOk(await call(key, 'GET', '/me/webhooks/deliveries')).data;
  assert.deepEqual(
    [delivery.endpointId, delivery.eventId, delivery.eventType, delivery.status, delivery.attempts],
    [created.endpoint.id, 'evt_members_1', 'credential.issued', 'pending', []],
  );
  const stranger = await personalKey(t, hooks);
  expectError(await call(stranger.key, 'DELETE', `/me/webhooks/${created.endpoint.id}`), 404, 'not_found');
  assert.deepEqual(expectOk(await call(stranger.key, 'GET', '/me/webhooks/deliveries')).data, []);
  assert.deepEqual(expectOk(await call(key, 'DELETE', `/me/webhooks/${created.endpoint.id}`)), { id: created.endpoint.id, deleted: true });
  assert.deepEqual(expectOk(await call(key, 'GET', '/me/webhooks')).data, []);
});

test('/auth.md names the new scopes, with their words and the operations that need them', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/auth.md' });
  assert.equal(res.statusCode, 200);
  for (const scope of [...members, ...hooks]) assert.match(res.body, new RegExp(scope.replace('.', '\\.')), scope);
  assert.match(res.body, /Create and delete your webhooks\./);
  assert.match(res.body, /team\.members\.remove/);
  assert.match(res.body, /me\.webhooks\.deliveries/);
});
