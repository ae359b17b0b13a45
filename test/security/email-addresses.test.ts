// An email address is read once, into one canonical mailbox (kernel/mailbox.ts), and that is what
// is stored, counted and mailed (issue 17). Generated over hostile addresses:
//   - every address the parser accepts is read by the mailer (nodemailer's own address parser)
//     as exactly that one mailbox, and parsing is idempotent; every text the mailer reads as
//     another mailbox, several, a group or a name is refused;
//   - every place that takes an address — /signin, agent registration, adding a team member, the
//     accounts service and the CLI flags, the mailer itself — refuses the addresses with
//     400 invalid_request (CLI: a usage error), storing and sending nothing;
//   - sign-in links go to, are stored for and are counted by the canonical mailbox, and /signin is
//     limited per client address as well (SIGNIN_PER_CLIENT_PER_HOUR, 50 by default).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import addressparser from 'nodemailer/lib/addressparser';
import pino from 'pino';
import { parseCommandLine, UsageError } from '../../src/cli/commands.ts';
import { createMailer } from '../../src/kernel/mail.ts';
import { parseMailbox } from '../../src/kernel/mailbox.ts';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';
import { Browser, csrfOf, signInViaOutbox } from '../surfaces/web/browser.ts';

/** The four, read by a mailer as mail to someone else. */
const REPORTED = ['x,victim@example.org', 'g:victim@example.org;', 'x<victim@example.org', 'victim@example.org,other@example.org'];

/** Fragments a hostile address is made of; every combination is tried. */
const PREFIXES = ['', 'x', 'x,', 'g:', 'x<', '"x"', '(c)', 'a b ', 'x;', '\\', '=?utf-8?q?x?=', 'x@y,', ' ', 'mailto:'];
const MIDDLES = [
  'victim@example.org',
  'Victim@Example.ORG',
  'v..ictim@example.org',
  '.victim@example.org',
  'victim.@example.org',
  '"vic tim"@example.org',
  'victim@[127.0.0.1]',
  'victim@127.0.0.1',
  'victim@example',
  'victim@example.org.',
  'victim@-example.org',
  'victim@exa_mple.org',
  'victim@@example.org',
  'vic\ttim@example.org',
  'victim@exämple.org',
  'vïctim@example.org',
  "o'brien+tag@example.org",
  'victim%other.org@example.org',
  'other.org!victim@example.org',
  `${'a'.repeat(65)}@example.org`,
  `victim@${'a'.repeat(64)}.org`,
];
const SUFFIXES = ['', ';', '>', ',other@example.org', ' other@example.org', '(c)', '\r\nBcc: other@example.org', '.', ' '];

const generated = () => PREFIXES.flatMap((p) => MIDDLES.flatMap((m) => SUFFIXES.map((s) => `${p}${m}${s}`)));

function accepted(text: string): string | null {
  try {
    return parseMailbox(text);
  } catch (err: any) {
    assert.equal(err.code, 'invalid_request', text);
    assert.equal(err.status, 400, text);
    return null;
  }
}

test('every accepted address is one mailbox to the mailer, written as the mailer reads it; lists, groups and names are refused', () => {
  let accepts = 0;
  for (const text of [...REPORTED, ...generated()]) {
    const mailbox = accepted(text);
    const read = addressparser(text, { flatten: true }) as { address: string; name: string }[];
    if (mailbox === null) continue;
    accepts++;
    assert.equal(parseMailbox(mailbox), mailbox, `${text}: the canonical form is stable`);
    assert.equal(mailbox, mailbox.toLowerCase(), `${text}: lower case`);
    const again = addressparser(mailbox, { flatten: true }) as { address: string; name: string }[];
    assert.deepEqual(again, [{ address: mailbox, name: '' }], `${JSON.stringify(text)} → ${mailbox}: the mailer reads exactly it`);
    // What was typed is the same single mailbox to the mailer (case and surrounding spaces aside).
    assert.equal(read.length, 1, `${JSON.stringify(text)}: the mailer reads ${read.length} addresses`);
    assert.equal(read[0]!.name, '', JSON.stringify(text));
    assert.equal(read[0]!.address.split('@')[0]!.toLowerCase(), mailbox.split('@')[0], JSON.stringify(text));
  }
  for (const text of [...REPORTED, 'victim%other.org@example.org', 'other.org!victim@example.org', '=?utf-8?q?victim?=@example.org'])
    assert.equal(accepted(text), null, text);
  assert.equal(parseMailbox('  Victim@Example.ORG '), 'victim@example.org');
  assert.equal(parseMailbox('victim@EXÄMPLE.org'), 'victim@xn--exmple-cua.org');
  assert.ok(accepts >= 4, `accepted ${accepts}`);
});

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t?.close();
});

const outboxTo = (needle: string) => t.ctx.services.mailer.outbox().filter((m) => m.to.includes(needle));
const rows = async (table: 'signin_links' | 'agent_registrations' | 'accounts') =>
  (await t.ctx.db.selectFrom(table).select('email').execute()).map((r) => r.email);

test('every place that takes an address refuses the reported ones with 400, storing and sending nothing', async () => {
  const owner = await t.ctx.services.accounts.create({ email: 'club-owner@example.org' });
  await t.ctx.services.accounts.create({ email: 'victim@example.org' });
  const teamId = (await t.ctx.services.accounts.teams.create(operator, { name: 'Mail Club', ownerAccountId: owner.id })).id;
  const ownerBrowser = await signInViaOutbox(t.app, () => t.ctx.services.mailer.outbox(), 'club-owner@example.org');
  const before = { mail: outboxTo('victim').length, links: await rows('signin_links'), registrations: await rows('agent_registrations') };
  for (const text of REPORTED) {
    // The website's sign-in form.
    const b = new Browser(t.app);
    const signin = await b.submit('/signin', '/signin', { email: text });
    assert.equal(signin.status, 400, `/signin ${text}`);
    assert.match(signin.body, /is not a single email address/);
    // Agent registration (RFC 8628-style JSON errors).
    const reg = await t.app.inject({ method: 'POST', url: '/agent/auth', payload: { email: text, agent_name: 'Mailer Agent' } });
    assert.equal(reg.statusCode, 400, `/agent/auth ${text}`);
    assert.equal(reg.json().error, 'invalid_request');
    // Adding a team member by address.
    const members = `/dashboard/${teamId}/settings/members`;
    const add = await ownerBrowser.post(members, { _csrf: csrfOf((await ownerBrowser.get(members)).body), email: text, role: 'member' });
    assert.equal(add.status, 400, `members ${text}`);
    assert.match(add.body, /is not a single email address/);
    // The accounts service, as the CLI and every module call it.
    await assert.rejects(t.ctx.services.accounts.create({ email: text }), (e: any) => e.code === 'invalid_request', `create ${text}`);
    await assert.rejects(t.ctx.services.accounts.requireByEmail(text), (e: any) => e.code === 'invalid_request', `requireByEmail ${text}`);
    assert.equal(await t.ctx.services.accounts.findByEmail(text), null, `findByEmail ${text}`);
    // The CLI reads its email flags the same way: a bad argument, exit 2.
    for (const argv of [
      ['accounts', 'create', '--email', text],
      ['teams', 'create', '--name', 'T', '--owner', text],
      ['keys', 'list', '--email', text],
    ]) {
      assert.throws(() => parseCommandLine(argv), UsageError, argv.join(' '));
    }
    // The mailer sends to one mailbox or not at all.
    await assert.rejects(t.ctx.services.mailer.send({ to: text, subject: 's', text: 't' }), (e: any) => e.code === 'invalid_request', `mailer ${text}`);
  }
  assert.equal(outboxTo('victim').length, before.mail, 'no mail to the victim');
  assert.deepEqual(await rows('signin_links'), before.links);
  assert.deepEqual(await rows('agent_registrations'), before.registrations);
  assert.equal(await t.ctx.services.accounts.members.roleOf(teamId, (await t.ctx.services.accounts.requireByEmail('victim@example.org')).id), null);
});

test('a link goes to, is stored for and is counted by the canonical mailbox', async () => {
  const variants = ['Limit@Example.org', ' limit@example.ORG', 'LIMIT@EXAMPLE.ORG', 'limit@example.org ', 'Limit@example.org'];
  for (const [i, email] of variants.entries()) {
    const sent = await new Browser(t.app, { remoteAddress: `198.51.100.${i + 1}` }).submit('/signin', '/signin', { email });
    assert.equal(sent.status, 200, email);
    assert.match(sent.body, /sign-in link to <strong>limit@example\.org<\/strong>/);
  }
  assert.equal(outboxTo('imit@').length, 5);
  assert.ok(outboxTo('imit@').every((m) => m.to === 'limit@example.org'));
  assert.deepEqual(
    (await rows('signin_links')).filter((e) => /limit/i.test(e)),
    Array(5).fill('limit@example.org'),
  );
  // A sixth, in any spelling and from any address: the mailbox's hour is full.
  const sixth = await new Browser(t.app, { remoteAddress: '198.51.100.99' }).submit('/signin', '/signin', { email: 'LiMiT@example.org' });
  assert.equal(sixth.status, 429);
  assert.match(String(sixth.headers['retry-after']), /^\d+$/);
  assert.equal(outboxTo('imit@').length, 5);
});

test('/signin is limited per client address: 50 links an hour from one address, then 429; another address goes on', async () => {
  assert.equal(t.config.signin.perClientPerHour, 50);
  const office = '203.0.113.77';
  for (let i = 0; i < 50; i++) {
    const res = await new Browser(t.app, { remoteAddress: office }).submit('/signin', '/signin', { email: `colleague-${i}@office.example.org` });
    assert.equal(res.status, 200, `sign-in ${i + 1}`);
  }
  const over = await new Browser(t.app, { remoteAddress: office }).submit('/signin', '/signin', { email: 'one-more@office.example.org' });
  assert.equal(over.status, 429);
  assert.match(String(over.headers['retry-after']), /^\d+$/);
  assert.equal(outboxTo('one-more@').length, 0);
  // An IPv4-mapped form of the same address is the same client.
  const mapped = await new Browser(t.app, { remoteAddress: `::ffff:${office}` }).submit('/signin', '/signin', { email: 'mapped@office.example.org' });
  assert.equal(mapped.status, 429);
  const elsewhere = await new Browser(t.app, { remoteAddress: '203.0.113.78' }).submit('/signin', '/signin', { email: 'one-more@office.example.org' });
  assert.equal(elsewhere.status, 200);
});

test('over SMTP the envelope and the To header name the canonical mailbox only', async () => {
  const smtp = await startSmtpReceiver();
  const mailer = createMailer(
    { smtpUrl: smtp.url, mailFrom: 'Council Tracker <no-reply@council.test>', nodeEnv: 'test' },
    pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
  );
  try {
    await mailer.send({ to: ' Victim@Example.ORG ', subject: 'Hello', text: 'Hi' });
    for (const text of REPORTED) await assert.rejects(mailer.send({ to: text, subject: 'x', text: 'x' }));
    assert.equal(smtp.messages.length, 1);
    assert.deepEqual(smtp.messages[0]!.to, ['victim@example.org']);
    assert.match(smtp.messages[0]!.raw, /^To: victim@example\.org\r?$/m);
  } finally {
    await mailer.close();
    await smtp.close();
  }
});
