import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type Browser, csrfOf, signInViaOutbox } from './browser.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
let teamId: string;
let otherTeamId: string;
const ids: Record<string, string> = {};
const browsers: Record<string, Browser> = {};

before(async () => {
  t = await startTestContext();
  const { accounts } = t.ctx.services;
  for (const who of ['owner', 'admin', 'member', 'stranger']) {
    ids[who] = (await accounts.create({ email: `${who}@example.org` })).id;
  }
  teamId = (await accounts.teams.create(operator, { name: 'Ward Watchers', ownerAccountId: ids.owner! })).id;
  await accounts.members.add(operator, { teamId, accountId: ids.admin!, role: 'admin' });
  await accounts.members.add(operator, { teamId, accountId: ids.member!, role: 'member' });
  otherTeamId = (await accounts.teams.create(operator, { name: 'Other Team', ownerAccountId: ids.stranger! })).id;
  const outbox = () => t.ctx.services.mailer.outbox();
  for (const who of ['owner', 'admin', 'member', 'stranger']) browsers[who] = await signInViaOutbox(t.app, outbox, `${who}@example.org`);
});
after(async () => {
  await t.close();
});

const teamPage = () => `/dashboard/${teamId}/settings/api-keys`;
const teamKeys = () => t.ctx.services.credentials.keys.list(operator, { teamId });
const ownKeys = (who: string) => t.ctx.services.credentials.keys.list(operator, { accountId: ids[who]! });

function keyValueIn(body: string): string {
  const m = /ctk_[0-9A-Za-z]{32}/.exec(body);
  assert.ok(m, 'the page shows the new key');
  return m[0];
}

test('the team key page acts only within its team: outsiders and plain members make nothing, personal keys are not made there', async () => {
  const before = { team: (await teamKeys()).length, stranger: (await ownKeys('stranger')).length, member: (await ownKeys('member')).length };
  // Someone outside the team, with a valid form of their own session: 404, and no key of any kind.
  const strangerForm = await browsers.stranger!.get('/account');
  for (const owner of [teamId, 'personal']) {
    const res = await browsers.stranger!.post(teamPage(), { _csrf: csrfOf(strangerForm.body), name: 'sneaky', owner, scopes: 'public.read' });
    assert.equal(res.status, 404, `stranger, owner ${owner}`);
  }
  // A plain member: refused, and no personal key made on the team page either.
  const memberPage = await browsers.member!.get(teamPage());
  assert.equal(memberPage.status, 200);
  assert.doesNotMatch(memberPage.body, /New team key/);
  const asTeam = await browsers.member!.post(teamPage(), { _csrf: csrfOf(memberPage.body), name: 'mine', owner: teamId, scopes: 'public.read' });
  assert.equal(asTeam.status, 403);
  const asPersonal = await browsers.member!.post(teamPage(), { _csrf: csrfOf(memberPage.body), name: 'mine', owner: 'personal', scopes: 'public.read' });
  assert.equal(asPersonal.status, 400);
  assert.deepEqual({ team: (await teamKeys()).length, stranger: (await ownKeys('stranger')).length, member: (await ownKeys('member')).length }, before);
});

test('an admin makes a team key on the page: the value is shown once and never again', async () => {
  const b = browsers.admin!;
  const page = await b.get(teamPage());
  assert.equal(page.status, 200);
  assert.match(page.body, /See the team&#39;s follows\.|See the team's follows\./, 'scopes carry their plain-language descriptions');
  const created = await b.post(teamPage(), {
    _csrf: csrfOf(page.body),
    name: 'Newsroom bot',
    owner: teamId,
    scopes: ['public.read', 'team.notes.read'],
    expires: '2099-01-31',
    allowed_ips: '203.0.113.7, 2001:db8::/32',
  });
  assert.equal(created.status, 201, created.body);
  assert.equal(created.headers['cache-control'], 'no-store');
  const value = keyValueIn(created.body);

  const [key] = (await teamKeys()).filter((k) => k.name === 'Newsroom bot');
  assert.ok(key);
  assert.deepEqual(key.scopes, ['public.read', 'team.notes.read']);
  assert.deepEqual(key.allowedIps, ['203.0.113.7', '2001:db8::/32']);
  assert.equal(key.expiresAt, '2099-01-31T00:00:00.000Z');
  assert.equal(value.slice(0, 8), key.prefix);

  // Every later page lists it by prefix, never by value.
  for (const [who, url] of [
    ['admin', teamPage()],
    ['owner', teamPage()],
    ['admin', '/account'],
  ] as const) {
    const later = await browsers[who]!.get(url);
    assert.equal(later.status, 200);
    assert.equal(later.body.includes(value), false, `${url} for ${who} must not show the key value`);
    assert.doesNotMatch(later.body, /ctk_[0-9A-Za-z]{32}/);
  }
  assert.match((await browsers.owner!.get(teamPage())).body, new RegExp(`${key.prefix}…`));
  assert.match((await browsers.owner!.get(teamPage())).body, /Newsroom bot/);
});

test('a member cannot make a team key: 403 with the page, nothing made', async () => {
  const b = browsers.member!;
  const page = await b.get(teamPage());
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.body, /Create key/, 'no create form for members');
  const before = (await teamKeys()).length;
  const res = await b.post(teamPage(), { _csrf: csrfOf(page.body), name: 'sneaky', owner: teamId, scopes: ['public.read'] });
  assert.equal(res.status, 403);
  assert.match(res.body, /Only team owners and admins can make team keys/);
  assert.equal((await teamKeys()).length, before);
});

test("a member sees only their own keys; an admin sees and revokes a member's team key", async () => {
  const { accounts, credentials } = t.ctx.services;
  // The member made a team key while an admin, then became a member again.
  await accounts.members.setRole(operator, { teamId, accountId: ids.member!, role: 'admin' });
  const made = await credentials.keys.create({ accountId: ids.member!, name: 'member team key', scopes: ['team.notes.read'], teamId });
  await accounts.members.setRole(operator, { teamId, accountId: ids.member!, role: 'member' });

  const memberView = await browsers.member!.get(teamPage());
  assert.match(memberView.body, /member team key/);
  assert.doesNotMatch(memberView.body, /Newsroom bot/, "a member does not see others' keys");

  // Nor can the member act on someone else's key: it does not exist for them.
  const adminKey = (await teamKeys()).find((k) => k.name === 'Newsroom bot')!;
  const refused = await browsers.member!.post(`${teamPage()}/${adminKey.id}/revoke`, { _csrf: csrfOf(memberView.body) });
  assert.equal(refused.status, 404);
  assert.equal((await credentials.keys.get(operator, adminKey.id)).revokedAt, null);

  const adminView = await browsers.admin!.get(teamPage());
  assert.match(adminView.body, /member team key/);
  assert.match(adminView.body, /member@example\.org/, 'the admin sees who made it');
  const revoked = await browsers.admin!.post(`${teamPage()}/${made.id}/revoke`, { _csrf: csrfOf(adminView.body) });
  assert.equal(revoked.status, 303);
  assert.ok((await credentials.keys.get(operator, made.id)).revokedAt);
  assert.doesNotMatch((await browsers.admin!.get(teamPage())).body, /member team key/);
});

test('a personal key made on the account page: personal scopes only, shown once', async () => {
  const b = browsers.member!;
  const page = await b.get('/account');
  assert.match(page.body, /Ward Watchers/);
  assert.match(page.body, /<td>member<\/td>/);
  assert.doesNotMatch(page.body, /value="team\.notes\.read"/, 'team scopes are not offered for personal keys');
  const created = await b.post('/account/keys', { _csrf: csrfOf(page.body), name: 'my laptop', owner: 'personal', scopes: ['public.read', 'me.follows.read'] });
  assert.equal(created.status, 201);
  const value = keyValueIn(created.body);
  const later = await b.get('/account');
  assert.match(later.body, /my laptop/);
  assert.equal(later.body.includes(value), false);
  // The owner of the team does not see the member's personal key on the team page.
  assert.doesNotMatch((await browsers.owner!.get(teamPage())).body, /my laptop/);
  // The key works on the API.
  const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${value}` } });
  assert.equal(me.statusCode, 200);
});

test('bad key forms come back with 400 and change nothing', async () => {
  const b = browsers.owner!;
  const page = await b.get('/account');
  const csrf = csrfOf(page.body);
  const before = (await ownKeys('owner')).length;
  const cases: Record<string, string>[] = [
    { name: 'no scopes', owner: 'personal' },
    { name: 'team scope on personal', owner: 'personal', scopes: 'team.notes.read' },
    { name: '', owner: 'personal', scopes: 'public.read' },
    { name: 'bad ip', owner: 'personal', scopes: 'public.read', allowed_ips: '300.1.1.1' },
    { name: 'past', owner: 'personal', scopes: 'public.read', expires: '2001-01-01' },
    { name: 'junk date', owner: 'personal', scopes: 'public.read', expires: 'tomorrow' },
    { name: 'unknown scope', owner: 'personal', scopes: 'everything' },
    { name: 'team owner on account page', owner: teamId, scopes: 'public.read' },
  ];
  for (const form of cases) {
    const res = await b.post('/account/keys', { _csrf: csrf, ...form });
    assert.equal(res.status, 400, `${form.name}: ${res.status}`);
    assert.match(res.body, /class="error"/);
  }
  assert.equal((await ownKeys('owner')).length, before);
  const teamForm = await b.get(teamPage());
  const wrongOwner = await b.post(teamPage(), { _csrf: csrfOf(teamForm.body), name: 'x', owner: otherTeamId, scopes: 'public.read' });
  assert.equal(wrongOwner.status, 400);
  assert.equal((await ownKeys('owner')).length, before);
});

test('rename, change expiry and allowed IPs, revoke through the account page', async () => {
  const { credentials } = t.ctx.services;
  const { id } = await credentials.keys.create({ accountId: ids.owner!, name: 'old name', scopes: ['public.read'] });
  const b = browsers.owner!;
  const csrf = csrfOf((await b.get('/account')).body);
  assert.equal((await b.post(`/account/keys/${id}/rename`, { _csrf: csrf, name: 'new name' })).status, 303);
  assert.equal((await b.post(`/account/keys/${id}/expiry`, { _csrf: csrf, expires: '2098-05-01' })).status, 303);
  assert.equal((await b.post(`/account/keys/${id}/allowed-ips`, { _csrf: csrf, allowed_ips: '198.51.100.0/24' })).status, 303);
  let key = await credentials.keys.get(operator, id);
  assert.equal(key.name, 'new name');
  assert.equal(key.expiresAt, '2098-05-01T00:00:00.000Z');
  assert.deepEqual(key.allowedIps, ['198.51.100.0/24']);

  const bad = await b.post(`/account/keys/${id}/allowed-ips`, { _csrf: csrf, allowed_ips: 'not-an-ip' });
  assert.equal(bad.status, 400);
  assert.match(bad.body, /not-an-ip/);
  assert.deepEqual((await credentials.keys.get(operator, id)).allowedIps, ['198.51.100.0/24']);

  assert.equal((await b.post(`/account/keys/${id}/expiry`, { _csrf: csrf, expires: '' })).status, 303);
  assert.equal((await credentials.keys.get(operator, id)).expiresAt, null);
  assert.equal((await b.post(`/account/keys/${id}/revoke`, { _csrf: csrf })).status, 303);
  key = await credentials.keys.get(operator, id);
  assert.ok(key.revokedAt);
});

test('key changes without a valid CSRF token are 403 and change nothing', async () => {
  const { credentials } = t.ctx.services;
  const { id } = await credentials.keys.create({ accountId: ids.admin!, name: 'csrf target', scopes: ['public.read'] });
  const b = browsers.admin!;
  const ownerToken = csrfOf((await browsers.owner!.get('/account')).body);
  const forms: Record<string, string>[] = [{}, { _csrf: 'wrong' }, { _csrf: ownerToken }];
  for (const form of forms) {
    assert.equal((await b.post(`/account/keys/${id}/revoke`, form)).status, 403);
    assert.equal((await b.post(`/account/keys/${id}/rename`, { ...form, name: 'hijacked' })).status, 403);
    assert.equal((await b.post('/account/keys', { ...form, name: 'forged', owner: 'personal', scopes: 'public.read' })).status, 403);
  }
  const key = await credentials.keys.get(operator, id);
  assert.equal(key.name, 'csrf target');
  assert.equal(key.revokedAt, null);
  assert.equal(
    (await ownKeys('admin')).some((k) => k.name === 'forged'),
    false,
  );
});

test("another team's pages and keys are 404", async () => {
  const b = browsers.admin!;
  assert.equal((await b.get(`/dashboard/${otherTeamId}/settings/api-keys`)).status, 404);
  assert.equal((await b.get(`/dashboard/${otherTeamId}/settings/members`)).status, 404);
  const { id } = await t.ctx.services.credentials.keys.create({
    accountId: ids.stranger!,
    name: 'theirs',
    scopes: ['public.read'],
    teamId: otherTeamId,
    by: accountActor(ids.stranger!),
  });
  const csrf = csrfOf((await b.get(teamPage())).body);
  assert.equal((await b.post(`${teamPage()}/${id}/revoke`, { _csrf: csrf })).status, 404);
  assert.equal((await t.ctx.services.credentials.keys.get(operator, id)).revokedAt, null);
});

test('signed-out visitors are sent to the sign-in page', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/account' });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, '/signin');
});
