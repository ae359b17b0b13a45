import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { verifyCsrf } from '../../../src/modules/sessions/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

let t: TestContext;
const clock = new ManualClock('2031-06-01T08:00:00Z');
const DAY = 24 * 3600 * 1000;

before(async () => {
  t = await startTestContext({ clock });
});
after(async () => {
  await t.close();
});

async function linkFor(email: string): Promise<string> {
  await t.ctx.services.sessions.requestLink(email, '203.0.113.20');
  const mail = t.ctx.services.mailer.outbox().find((m) => m.to === email);
  assert.ok(mail, 'the link went to the outbox');
  return decodeURIComponent(/code=(\S+)/.exec(mail.text)![1]!);
}

async function signIn(email: string) {
  return t.ctx.services.sessions.useLink(await linkFor(email));
}

test('links are stored hashed: the database never holds the token', async () => {
  const code = await linkFor('hashed@example.org');
  const rows = await t.ctx.db.selectFrom('signin_links').selectAll().execute();
  assert.ok(rows.length > 0);
  for (const row of rows) assert.equal(JSON.stringify(row).includes(code), false);
  const started = await t.ctx.services.sessions.useLink(code);
  const sessions = await t.ctx.db.selectFrom('sessions').selectAll().execute();
  for (const row of sessions) assert.equal(JSON.stringify(row).includes(started.token), false);
  assert.equal(started.created, true);
});

test('checking a link does not use it; using it twice fails', async () => {
  const { sessions } = t.ctx.services;
  const code = await linkFor('twice@example.org');
  assert.deepEqual(await sessions.checkLink(code), { email: 'twice@example.org' });
  assert.deepEqual(await sessions.checkLink(code), { email: 'twice@example.org' });
  const first = await sessions.useLink(code);
  assert.equal(first.account.email, 'twice@example.org');
  await assert.rejects(sessions.useLink(code), (e: unknown) => e instanceof AppError && e.code === 'invalid_request');
  assert.equal(await sessions.checkLink(code), null);
  await assert.rejects(sessions.useLink('ctl_garbage'), (e: unknown) => e instanceof AppError && e.code === 'invalid_request');
});

test('an existing account signs in without a second account being made', async () => {
  const made = await t.ctx.services.accounts.create({ email: 'Existing@Example.org' });
  const started = await signIn('existing@example.org');
  assert.equal(started.account.id, made.id);
  assert.equal(started.created, false);
});

test('too many open links for one address are refused', async () => {
  const { sessions } = t.ctx.services;
  for (let i = 0; i < 5; i++) await sessions.requestLink('flood@example.org', '203.0.113.21');
  await assert.rejects(sessions.requestLink('flood@example.org', '203.0.113.21'), (e: unknown) => e instanceof AppError && e.code === 'rate_limited');
  await assert.rejects(sessions.requestLink('nope', '203.0.113.21'), (e: unknown) => e instanceof AppError && e.code === 'invalid_request');
});

test('sessions slide: used within 30 days they stay, left alone they end', async () => {
  const { sessions } = t.ctx.services;
  const { token } = await signIn('slider@example.org');
  for (let i = 0; i < 3; i++) {
    clock.advance(20 * DAY);
    const info = await sessions.resolve(token);
    assert.ok(info, `still signed in after ${(i + 1) * 20} days of use`);
    assert.equal(info.extended, true);
  }
  clock.advance(31 * DAY);
  assert.equal(await sessions.resolve(token), null);
});

test('sign-out ends one session; sign-out everywhere ends them all', async () => {
  const { sessions } = t.ctx.services;
  const a = await signIn('everywhere@example.org');
  const b = await signIn('everywhere@example.org');
  const c = await signIn('everywhere@example.org');
  const other = await signIn('bystander@example.org');
  await sessions.signOut(a.token);
  assert.equal(await sessions.resolve(a.token), null);
  assert.ok(await sessions.resolve(b.token));
  assert.equal(await sessions.signOutEverywhere(b.account.id), 2);
  assert.equal(await sessions.resolve(b.token), null);
  assert.equal(await sessions.resolve(c.token), null);
  assert.ok(await sessions.resolve(other.token), "another person's session is untouched");
});

test('a session as an Actor: personal scopes, team scopes by role, 404 for a team the person is not in', async () => {
  const { credentials, accounts } = t.ctx.services;
  const personalOf = async (token: string | undefined) => (await credentials.verifySession(token))?.actor ?? null;
  const forTeam = async (token: string, teamId: string) => credentials.actingForTeam((await credentials.verifySession(token))!, teamId);
  const owner = await signIn('actor-owner@example.org');
  const member = await signIn('actor-member@example.org');
  const team = await accounts.teams.create(operator, { name: 'Actors', ownerAccountId: owner.account.id, features: ['team_data'] });
  await accounts.members.add(operator, { teamId: team.id, accountId: member.account.id, role: 'member' });

  const personal = await personalOf(member.token);
  assert.ok(personal);
  assert.equal(personal.credential.type, 'session');
  assert.equal(personal.team, null);
  // Every personal scope a key of the person's could hold, their keys and webhooks included.
  assert.deepEqual(personal.scopes, [
    'public.read',
    'public.ai',
    'me.follows.read',
    'me.follows.write',
    'me.keys.read',
    'me.keys.write',
    'me.webhooks.read',
    'me.webhooks.write',
  ]);
  assert.deepEqual(personal.limitsOwner, { type: 'account', id: member.account.id });

  const asMember = await forTeam(member.token, team.id);
  assert.ok(asMember?.team);
  assert.equal(asMember.team.role, 'member');
  assert.ok(asMember.scopes.includes('team.notes.write'));
  assert.equal(asMember.scopes.includes('team.follows.write'), false, 'members cannot write team follows');
  assert.equal(asMember.scopes.includes('me.follows.read'), false);
  assert.equal(asMember.scopes.includes('team.keys.write'), false, "members cannot change the team's keys");
  assert.ok(asMember.scopes.includes('team.members.write'), 'members hold it to leave the team');
  assert.deepEqual(asMember.limitsOwner, { type: 'team', id: team.id });

  const asOwner = await forTeam(owner.token, team.id);
  assert.ok(asOwner?.scopes.includes('team.follows.write'));

  const outsider = await signIn('actor-outsider@example.org');
  await assert.rejects(forTeam(outsider.token, team.id), (e: unknown) => e instanceof AppError && e.code === 'not_found' && /not a member/.test(e.message));
  assert.equal(await personalOf('cts_unknown'), null);
  assert.equal(await personalOf(undefined), null);
});

test('verifyCsrf accepts only the token of the same session', async () => {
  const { sessions } = t.ctx.services;
  const a = await signIn('csrf-a@example.org');
  const b = await signIn('csrf-b@example.org');
  const tokenA = sessions.csrfToken(a.token);
  assert.equal(verifyCsrf(a.token, tokenA), true);
  assert.equal(verifyCsrf(b.token, tokenA), false);
  assert.equal(verifyCsrf(a.token, ''), false);
  assert.equal(verifyCsrf(a.token, `${tokenA}x`), false);
  assert.equal(verifyCsrf(null, tokenA), false);
  assert.equal(verifyCsrf('not-a-session', tokenA), false);
});
