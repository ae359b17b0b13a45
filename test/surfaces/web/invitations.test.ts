// Inviting someone to a team by email, with real mail (the SMTP receiver): the members page and
// v2 perform the same operation; an address no one has signed in with gets an account; the person
// gets a mail naming the team and who added them, whose link signs them in and lands on the
// team's dashboard; the invitation counts as a sign-in link (5 an hour per mailbox, and
// SIGNIN_PER_CLIENT_PER_HOUR per inviting person), and a refused one adds no one and makes no account.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { api, expectError, expectOk } from '../v2/team-helpers.ts';
import { Browser, csrfOf, linkIn, pathOf } from './browser.ts';

const PER_INVITER = 4;
let t: TestContext;
let smtp: SmtpReceiver;
let call: ReturnType<typeof api>;
let n = 0;

before(async () => {
  smtp = await startSmtpReceiver();
  t = await startTestContext({ env: { SMTP_URL: smtp.url, SIGNIN_PER_CLIENT_PER_HOUR: String(PER_INVITER) } });
  call = api(t);
});
after(async () => {
  await t.close();
  await smtp.close();
});

/** A team whose owner (with a name) holds a members key; `n` keeps each test's people apart. */
async function team(name: string) {
  const { accounts, credentials } = t.ctx.services;
  const owner = await accounts.create({ email: `owner-${++n}@example.org`, name: `Olu Organiser ${n}` });
  const made = await accounts.teams.create(operator, { name, ownerAccountId: owner.id });
  const { key } = await credentials.keys.create({
    accountId: owner.id,
    teamId: made.id,
    name: 'members',
    scopes: ['team.members.read', 'team.members.write'],
  });
  return { id: made.id, owner, key };
}

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

/** Opens the mailed link in a fresh browser and confirms it: where sign-in lands. */
async function openLink(text: string, remoteAddress: string): Promise<{ browser: Browser; landed: string }> {
  const browser = new Browser(t.app, { remoteAddress });
  const confirm = await browser.get(pathOf(linkIn(text)));
  assert.equal(confirm.status, 200, confirm.body);
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  const done = await browser.post('/signin/verify', { _csrf: csrfOf(confirm.body), code });
  assert.equal(done.status, 303, done.body);
  return { browser, landed: done.location! };
}

async function signedInOwner(email: string): Promise<Browser> {
  const b = new Browser(t.app, { remoteAddress: '198.51.100.7' });
  assert.equal((await b.submit('/signin', '/signin', { email })).status, 200);
  return (await openLink(mailsTo(email).at(-1)!.text, '198.51.100.7')).browser;
}

test('the members page invites an address no one has signed in with: account made, mail sent, its link lands on the dashboard', async () => {
  const tra = await team('Transit Riders Alliance');
  const owner = await signedInOwner(tra.owner.email);
  const members = `/dashboard/${tra.id}/settings/members`;
  const form = await owner.get(members);
  assert.match(form.body, /Invite by email/);
  const invitee = 'New.Volunteer@Example.org';
  const added = await owner.post(members, { _csrf: csrfOf(form.body), email: invitee, role: 'member' });
  assert.equal(added.status, 303, added.body);

  const account = await t.ctx.services.accounts.findByEmail('new.volunteer@example.org');
  assert.ok(account, 'the account was made');
  assert.equal(await t.ctx.services.accounts.members.roleOf(tra.id, account.id), 'member');
  const shown = await owner.get(added.location!);
  assert.match(shown.body, /Added new\.volunteer@example\.org as member\. We emailed them/);
  assert.match(shown.body, /new\.volunteer@example\.org <span class="muted">\(invited, not signed in yet\)/);

  const [mail, ...more] = mailsTo('new.volunteer@example.org');
  assert.equal(more.length, 0, 'one mail');
  assert.equal(mail!.subject, `Olu Organiser ${n} (${tra.owner.email}) added you to Transit Riders Alliance on Council Tracker`);
  assert.match(mail!.text, /added you to the team "Transit Riders Alliance" on Council Tracker, as a member\./);
  assert.match(mail!.text, /this makes your account/);
  assert.match(mail!.text, new RegExp(`/signin\\?return=%2Fdashboard%2F${tra.id}`));

  const { browser, landed } = await openLink(mail!.text, '203.0.113.20');
  assert.equal(landed, `/dashboard/${tra.id}`);
  const section = (await browser.get(landed)).location!;
  assert.ok(section.startsWith(`/dashboard/${tra.id}/`), section);
  assert.equal((await browser.get(section)).status, 200, 'the new member sees the dashboard');
  assert.doesNotMatch((await owner.get(members)).body, /invited, not signed in yet/);
});

test('someone already in another team lands on the inviting team’s dashboard, not their account page', async () => {
  const first = await team('Block Club');
  const second = await team('Bike Lane Coalition');
  const person = await t.ctx.services.accounts.create({ email: `two-teams-${n}@example.org` });
  await t.ctx.services.accounts.members.add(operator, { teamId: first.id, accountId: person.id, role: 'member' });
  const added = expectOk(await call(second.key, 'POST', '/team/members', { email: person.email, role: 'admin' }), 201);
  assert.deepEqual([added.accountId, added.role, added.emailVerified], [person.id, 'admin', false]);
  const [mail] = mailsTo(person.email);
  assert.match(mail!.text, /added you to the team "Bike Lane Coalition" on Council Tracker, as an admin\./);
  assert.doesNotMatch(mail!.text, /this makes your account/);
  assert.equal((await openLink(mail!.text, '203.0.113.21')).landed, `/dashboard/${second.id}`);
});

test('v2 invites a new address the same way; someone already in the team is 409 and gets no mail', async () => {
  const club = await team('Pilsen Neighbors');
  const email = `v2-invitee-${n}@example.org`;
  const added = expectOk(await call(club.key, 'POST', '/team/members', { email, role: 'member' }), 201);
  assert.deepEqual([added.email, added.role, added.emailVerified], [email, 'member', false]);
  assert.equal(mailsTo(email).length, 1);
  expectError(await call(club.key, 'POST', '/team/members', { email, role: 'member' }), 409, 'conflict');
  assert.equal(mailsTo(email).length, 1, 'no second mail');
});

test('an invitation counts as a sign-in link for the mailbox: over 5 in an hour it is 429, and no one is added or made', async () => {
  const club = await team('Uptown Tenants');
  const email = `busy-${n}@example.org`;
  for (let i = 0; i < 5; i++) await t.ctx.services.sessions.requestLink(email, `192.0.2.${i + 1}`);
  const refused = await call(club.key, 'POST', '/team/members', { email, role: 'member' });
  expectError(refused, 429, 'rate_limited');
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.equal(await t.ctx.services.accounts.findByEmail(email), null, 'no account made');
  assert.equal(mailsTo(email).length, 5, 'only the five sign-in links');
});

test(`one person sends at most SIGNIN_PER_CLIENT_PER_HOUR (${PER_INVITER}) invitations an hour`, async () => {
  const club = await team('Rogers Park Riders');
  for (let i = 0; i < PER_INVITER; i++) expectOk(await call(club.key, 'POST', '/team/members', { email: `batch-${n}-${i}@example.org`, role: 'member' }), 201);
  const last = `batch-${n}-last@example.org`;
  expectError(await call(club.key, 'POST', '/team/members', { email: last, role: 'member' }), 429, 'rate_limited', /many invitations/);
  assert.equal(await t.ctx.services.accounts.findByEmail(last), null);
  assert.equal(mailsTo(last).length, 0);
});

test('an invitation without the CSRF token is 403: no account, no mail', async () => {
  const club = await team('Austin Coming Together');
  const owner = await signedInOwner(club.owner.email);
  const email = `no-csrf-${n}@example.org`;
  const res = await owner.post(`/dashboard/${club.id}/settings/members`, { email, role: 'member' });
  assert.equal(res.status, 403);
  assert.equal(await t.ctx.services.accounts.findByEmail(email), null);
  assert.equal(mailsTo(email).length, 0);
});
