// Who may read and set alerts, and what bad input gets: on a team follow each member subscribes for
// themselves (a member's session or key with team.follows.read), another team's follow and
// someone else's personal follow are 404, a member who leaves the team loses their subscriptions,
// hostile bodies are 400 and change nothing; and the dashboard's follow page sets alerts through
// a form with its CSRF token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { operator } from '../../../src/kernel/actor.ts';
import { browserWith, dashboardTeam, type DashboardTeam } from '../dashboard/helpers.ts';
import { api as apiOf, expectError, expectOk, personalKey, startWorld, type World } from './team-helpers.ts';

let w: World;
let team: DashboardTeam;
let other: DashboardTeam;
let api: ReturnType<typeof apiOf>;
let teamFollow: string;

before(async () => {
  w = await startWorld();
  api = apiOf(w.t);
  team = await dashboardTeam(w.t);
  other = await dashboardTeam(w.t);
  const made = expectOk(await api(team.keys.owner, 'POST', '/team/follows', { type: 'legislation', refId: w.seeded.matters[0]!.recordNumber }), 201);
  teamFollow = made.id;
});
after(() => w.t.close());

const subscriptions = async (accountId: string) =>
  Number((await sql<{ n: number }>`select count(*) as n from alert_subscriptions where account_id = ${accountId}`.execute(w.t.ctx.db)).rows[0]!.n);

test('on a team follow every member sets their own alerts; the others see only theirs', async () => {
  const path = `/team/follows/${teamFollow}/alerts`;
  // The member (a session acting for the team: team.follows.read, no write) subscribes daily.
  const mine = expectOk(await api(team.keys.member, 'PUT', path, { email: { frequency: 'daily' } }));
  assert.deepEqual([mine.followId, mine.email, mine.webhook, mine.pending], [teamFollow, { frequency: 'daily' }, false, 0]);
  // The owner has none of their own until they set them.
  assert.equal(expectOk(await api(team.keys.owner, 'GET', path)).email, null);
  expectOk(await api(team.keys.owner, 'PUT', path, { email: { frequency: 'weekly' }, webhook: true }));
  assert.deepEqual(expectOk(await api(team.keys.member, 'GET', path)).email, { frequency: 'daily' });
  assert.equal(await subscriptions(team.member), 1);
  // Clearing is the caller's own, and a second clear is 404.
  expectOk(await api(team.keys.owner, 'DELETE', path));
  expectError(await api(team.keys.owner, 'DELETE', path), 404, 'not_found');
  assert.deepEqual(expectOk(await api(team.keys.member, 'GET', path)).email, { frequency: 'daily' });
});

test("another team's follow, and a personal route for a team follow, are 404; a key without the scope is 403", async () => {
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const body = method === 'PUT' ? { email: { frequency: 'daily' } } : undefined;
    expectError(await api(other.keys.owner, method, `/team/follows/${teamFollow}/alerts`, body), 404, 'not_found');
  }
  const solo = await personalKey(w.t);
  expectError(await api(solo.key, 'GET', `/me/follows/${teamFollow}/alerts`), 404, 'not_found');
  expectError(await api(solo.key, 'GET', `/team/follows/${teamFollow}/alerts`), 403, 'team_only');
  const notes = await w.t.ctx.services.credentials.keys.create({ accountId: team.owner, teamId: team.id, name: 'notes only', scopes: ['team.notes.read'] });
  expectError(await api(notes.key, 'PUT', `/team/follows/${teamFollow}/alerts`, { email: { frequency: 'daily' } }), 403, 'scope_missing');
  // Someone else's personal follow is 404 too.
  const mine = expectOk(await api(solo.key, 'POST', '/me/follows', { type: 'search', refId: 'parking meters' }), 201);
  const stranger = await personalKey(w.t);
  expectError(await api(stranger.key, 'PUT', `/me/follows/${mine.id}/alerts`, { email: { frequency: 'daily' } }), 404, 'not_found');
  assert.equal(expectOk(await api(solo.key, 'GET', `/me/follows/${mine.id}/alerts`)).email, null);
});

test('hostile input is 400 (or 404 for an unknown follow) and changes nothing', async () => {
  const solo = await personalKey(w.t);
  const follow = expectOk(await api(solo.key, 'POST', '/me/follows', { type: 'search', refId: 'tax increment' }), 201);
  const path = `/me/follows/${follow.id}/alerts`;
  expectOk(await api(solo.key, 'PUT', path, { email: { frequency: 'weekly' } }));
  const bad: unknown[] = [
    { email: { frequency: 'hourly' } },
    { email: 'daily' },
    { email: { frequency: 'daily', extra: 1 } },
    { email: { frequency: 'daily' }, webhook: 'yes' },
    { email: { frequency: 'daily' }, admin: true },
    { email: null },
    { email: null, webhook: false },
    {},
    [],
  ];
  for (const body of bad) expectError(await api(solo.key, 'PUT', path, body), 400, 'invalid_request');
  for (const payload of ['{"email": {"frequency": ', 'null', '"daily"']) {
    const raw = await w.t.app.inject({
      method: 'PUT',
      url: `/api/v2${path}`,
      headers: { authorization: `Bearer ${solo.key}`, 'content-type': 'application/json' },
      payload,
    });
    expectError(raw, 400, 'invalid_request');
  }
  const form = await w.t.app.inject({
    method: 'PUT',
    url: `/api/v2${path}`,
    headers: { authorization: `Bearer ${solo.key}`, 'content-type': 'text/plain' },
    payload: 'daily',
  });
  expectError(form, 415, 'unsupported_media_type');
  expectError(await api(solo.key, 'PUT', `/me/follows/${'x'.repeat(201)}/alerts`, { email: { frequency: 'daily' } }), 400, 'invalid_request');
  expectError(await api(solo.key, 'PUT', '/me/follows/fol_nope/alerts', { email: { frequency: 'daily' } }), 404, 'not_found');
  expectError(await api(solo.key, 'PUT', `/me/follows/${follow.id}%00/alerts`, { email: { frequency: 'daily' } }), 400, 'invalid_request');
  assert.deepEqual(expectOk(await api(solo.key, 'GET', path)).email, { frequency: 'weekly' });
});

test('a member who leaves the team loses their alerts on its follows', async () => {
  assert.equal(await subscriptions(team.member), 1);
  await w.t.ctx.services.accounts.members.remove(operator, { teamId: team.id, accountId: team.member });
  assert.equal(await subscriptions(team.member), 0);
});

test("the dashboard's follow page shows the alerts form and sets them with the session's CSRF token", async () => {
  const browser = browserWith(w.t, team.sessions.admin);
  const url = `/dashboard/${team.id}/follows/${teamFollow}`;
  const list = await browser.request('GET', `/dashboard/${team.id}/follows`);
  assert.ok(list.body.includes(`href="${url}"`), 'the follows list links to each follow’s page');
  const page = await browser.request('GET', url);
  assert.equal(page.status, 200);
  assert.match(page.body, /<input type="radio" name="email" value="off" checked>/);
  const saved = await browser.submit(url, `${url}/alerts`, { email: 'daily', webhook: 'on' });
  assert.equal(saved.status, 303);
  const after = expectOk(await api(team.keys.admin, 'GET', `/team/follows/${teamFollow}/alerts`));
  assert.deepEqual([after.email, after.webhook], [{ frequency: 'daily' }, true]);
  assert.match((await browser.request('GET', url)).body, /<input type="radio" name="email" value="daily" checked>/);
  // Without the token: refused, nothing changes.
  const forged = await browser.post(`${url}/alerts`, { email: 'off' });
  assert.equal(forged.status, 403);
  // A value not offered is a 400 page; off clears them.
  assert.equal((await browser.submit(url, `${url}/alerts`, { email: 'hourly' })).status, 400);
  assert.equal((await browser.submit(url, `${url}/alerts`, { email: 'off' })).status, 303);
  assert.equal(expectOk(await api(team.keys.admin, 'GET', `/team/follows/${teamFollow}/alerts`)).email, null);
  // Another team's member: 404.
  assert.equal((await browserWith(w.t, other.sessions.admin).request('GET', url)).status, 404);
});
