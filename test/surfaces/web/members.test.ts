import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type Browser, csrfOf, signInViaOutbox } from './browser.ts';

let t: TestContext;
let teamId: string;
const ids: Record<string, string> = {};
const browsers: Record<string, Browser> = {};

before(async () => {
  t = await startTestContext();
  const { accounts } = t.ctx.services;
  for (const who of ['owner', 'admin', 'member', 'newcomer']) ids[who] = (await accounts.create({ email: `${who}@example.org` })).id;
  teamId = (await accounts.teams.create(operator, { name: 'Block Club', ownerAccountId: ids.owner! })).id;
  await accounts.members.add(operator, { teamId, accountId: ids.admin!, role: 'admin' });
  await accounts.members.add(operator, { teamId, accountId: ids.member!, role: 'member' });
  const outbox = () => t.ctx.services.mailer.outbox();
  for (const who of ['owner', 'admin', 'member']) browsers[who] = await signInViaOutbox(t.app, outbox, `${who}@example.org`);
});
after(async () => {
  await t.close();
});

const page = () => `/dashboard/${teamId}/settings/members`;
const roleOf = (who: string) => t.ctx.services.accounts.members.roleOf(teamId, ids[who]!);

async function csrf(who: string): Promise<string> {
  const res = await browsers[who]!.get(page());
  assert.equal(res.status, 200);
  return csrfOf(res.body);
}

test('members see the list but no management forms, and cannot add anyone', async () => {
  const res = await browsers.member!.get(page());
  assert.match(res.body, /owner@example\.org/);
  assert.doesNotMatch(res.body, /Invite by email/);
  const add = await browsers.member!.post(page(), { _csrf: csrfOf(res.body), email: 'newcomer@example.org', role: 'member' });
  assert.equal(add.status, 403);
  assert.equal(await roleOf('newcomer'), null);
});

test('a plain member learns nothing about which addresses have accounts: the same 403 for every address', async () => {
  const res = await browsers.member!.get(page());
  const token = csrfOf(res.body);
  const known = await browsers.member!.post(page(), { _csrf: token, email: 'newcomer@example.org', role: 'member' });
  const unknown = await browsers.member!.post(page(), { _csrf: token, email: 'nobody-at-all@example.org', role: 'member' });
  const blank = await browsers.member!.post(page(), { _csrf: token, email: '', role: 'member' });
  for (const answer of [known, unknown, blank]) {
    assert.equal(answer.status, 403);
    assert.match(answer.body, /Only team owners and admins may manage members/);
    assert.doesNotMatch(answer.body, /signed in with/);
  }
  assert.equal(await roleOf('newcomer'), null);
});

test('bad forms come back with 400 and change nothing', async () => {
  const token = await csrf('admin');
  const list = await browsers.admin!.post(page(), { _csrf: token, email: 'x,victim@example.org', role: 'member' });
  assert.equal(list.status, 400);
  assert.match(list.body, /is not a single email address/);
  const badRole = await browsers.admin!.post(page(), { _csrf: token, email: 'newcomer@example.org', role: 'emperor' });
  assert.equal(badRole.status, 400);
  assert.match(badRole.body, /role must be one of/);
  assert.equal(await roleOf('newcomer'), null);
});

test('an admin adds a member by email but cannot make an owner', async () => {
  const token = await csrf('admin');
  const asOwner = await browsers.admin!.post(page(), { _csrf: token, email: 'newcomer@example.org', role: 'owner' });
  assert.equal(asOwner.status, 403);
  assert.match(asOwner.body, /Only team owners may/);
  assert.equal(await roleOf('newcomer'), null);
  const added = await browsers.admin!.post(page(), { _csrf: token, email: 'Newcomer@Example.org', role: 'member' });
  assert.equal(added.status, 303);
  assert.equal(await roleOf('newcomer'), 'member');
  const promote = await browsers.admin!.post(`${page()}/${ids.newcomer}/role`, { _csrf: token, role: 'owner' });
  assert.equal(promote.status, 403);
  assert.equal(await roleOf('newcomer'), 'member');
});

test('the last owner cannot step down; with a second owner they can', async () => {
  const token = await csrf('owner');
  const down = await browsers.owner!.post(`${page()}/${ids.owner}/role`, { _csrf: token, role: 'admin' });
  assert.equal(down.status, 400);
  assert.match(down.body, /at least one owner/);
  assert.equal(await roleOf('owner'), 'owner');
  const leave = await browsers.owner!.post(`${page()}/${ids.owner}/remove`, { _csrf: token });
  assert.equal(leave.status, 400);
  assert.equal(await roleOf('owner'), 'owner');
  assert.equal((await browsers.owner!.post(`${page()}/${ids.admin}/role`, { _csrf: token, role: 'owner' })).status, 303);
  assert.equal(await roleOf('admin'), 'owner');
  assert.equal((await browsers.owner!.post(`${page()}/${ids.owner}/role`, { _csrf: token, role: 'admin' })).status, 303);
  assert.equal(await roleOf('owner'), 'admin');
});

test('removing a member revokes the team keys they made', async () => {
  const { accounts, credentials } = t.ctx.services;
  await accounts.members.setRole(operator, { teamId, accountId: ids.member!, role: 'admin' });
  const made = await credentials.keys.create({ accountId: ids.member!, name: 'leaver key', scopes: ['public.read'], teamId });
  const token = await csrf('admin');
  const removed = await browsers.admin!.post(`${page()}/${ids.member}/remove`, { _csrf: token });
  assert.equal(removed.status, 303);
  assert.equal(await roleOf('member'), null);
  assert.ok((await credentials.keys.get(operator, made.id)).revokedAt);
  assert.equal((await browsers.member!.get(page())).status, 404);
});

test('member changes without the CSRF token are 403 and change nothing', async () => {
  const before = await roleOf('newcomer');
  const res = await browsers.admin!.post(`${page()}/${ids.newcomer}/remove`, {});
  assert.equal(res.status, 403);
  assert.equal(await roleOf('newcomer'), before);
});
