import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { Browser, csrfOf, linkIn, pathOf } from './browser.ts';

let t: TestContext;
let smtp: SmtpReceiver;
const clock = new ManualClock('2030-03-01T12:00:00Z');

before(async () => {
  smtp = await startSmtpReceiver();
  t = await startTestContext({ clock, env: { SMTP_URL: smtp.url, SIGNIN_LINK_TTL_SECONDS: '600', MAIL_FROM: 'Council Tracker <signin@council.test>' } });
});
after(async () => {
  // The SMTP server is closed even when the context never started, or the process would hang.
  await smtp?.close();
  await t?.close();
});

function mailTo(email: string) {
  const all = smtp.messages.filter((m) => m.to.includes(email));
  return all[all.length - 1];
}

async function requestLink(b: Browser, email: string): Promise<string> {
  const res = await b.submit('/signin', '/signin', { email });
  assert.equal(res.status, 200, res.body);
  assert.match(res.body, /Check your email/);
  const mail = mailTo(email);
  assert.ok(mail, 'the SMTP server received the sign-in mail');
  return pathOf(linkIn(mail.text));
}

async function countAccounts(email: string) {
  return (await t.ctx.services.accounts.findByEmail(email)) ? 1 : 0;
}

test('the sign-in mail arrives over SMTP; opening the link changes nothing; confirming signs in and makes the account', async () => {
  const b = new Browser(t.app);
  const link = await requestLink(b, 'new.person@example.org');
  const mail = mailTo('new.person@example.org')!;
  assert.equal(mail.from, 'signin@council.test');
  assert.match(mail.subject, /sign-in link/);
  assert.match(link, /^\/signin\/verify\?code=ctl_/);

  // A mail scanner's GET, twice: a confirm page, no account, the link still works afterwards.
  for (let i = 0; i < 2; i++) {
    const opened = await new Browser(t.app).get(link);
    assert.equal(opened.status, 200);
    assert.match(opened.body, /new\.person@example\.org/);
    assert.match(opened.body, /<form method="post" action="\/signin\/verify">/);
    assert.equal(opened.headers['referrer-policy'], 'no-referrer');
  }
  assert.equal(await countAccounts('new.person@example.org'), 0);

  const confirm = await b.get(link);
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  const done = await b.post('/signin/verify', { _csrf: csrfOf(confirm.body), code });
  assert.equal(done.status, 303);
  assert.equal(done.location, '/account');
  assert.equal(await countAccounts('new.person@example.org'), 1);
  const made = await t.ctx.db.selectFrom('accounts').select('email_verified_at').where('email', '=', 'new.person@example.org').executeTakeFirstOrThrow();
  assert.ok(made.email_verified_at, 'using the link verifies the address');

  const cookie = done.setCookies.find((c) => c.startsWith('ct_session='));
  assert.ok(cookie, 'a session cookie is set');
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; SameSite=Lax/);
  assert.match(cookie, /; Path=\//);
  assert.match(cookie, /; Max-Age=2592000/);
  assert.doesNotMatch(cookie, /Secure/, 'not Secure when BASE_URL is http');

  const account = await b.get('/account');
  assert.equal(account.status, 200);
  assert.match(account.body, /new\.person@example\.org/);
  assert.equal(account.headers['cache-control'], 'no-store');
});

test('a link works once', async () => {
  const b = new Browser(t.app);
  const link = await requestLink(b, 'once@example.org');
  const confirm = await b.get(link);
  const form = { _csrf: csrfOf(confirm.body), code: /name="code" value="([^"]+)"/.exec(confirm.body)![1]! };
  assert.equal((await b.post('/signin/verify', form)).status, 303);

  const other = new Browser(t.app);
  const again = await other.get(link);
  assert.equal(again.status, 400);
  assert.match(again.body, /expired or was already used/);
  const reuse = await other.submit('/signin', '/signin/verify', { code: form.code });
  assert.equal(reuse.status, 400);
  assert.equal(other.jar.has('ct_session'), false);
});

test('a link expires after SIGNIN_LINK_TTL_SECONDS', async () => {
  const b = new Browser(t.app);
  const link = await requestLink(b, 'late@example.org');
  clock.advance(601 * 1000);
  const opened = await b.get(link);
  assert.equal(opened.status, 400);
  const code = decodeURIComponent(link.split('code=')[1]!);
  const used = await b.submit('/signin', '/signin/verify', { code });
  assert.equal(used.status, 400);
  assert.equal(await countAccounts('late@example.org'), 0);
  assert.equal(b.jar.has('ct_session'), false);
});

test('a link still works just before it expires', async () => {
  const b = new Browser(t.app);
  const link = await requestLink(b, 'justintime@example.org');
  clock.advance(599 * 1000);
  const confirm = await b.get(link);
  assert.equal(confirm.status, 200);
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  assert.equal((await b.post('/signin/verify', { _csrf: csrfOf(confirm.body), code })).status, 303);
});

test('a bad email address brings the form back with 400 and sends nothing', async () => {
  const before = smtp.messages.length;
  const b = new Browser(t.app);
  const res = await b.submit('/signin', '/signin', { email: 'not-an-address' });
  assert.equal(res.status, 400);
  assert.match(res.body, /is not a single email address/);
  assert.match(res.body, /value="not-an-address"/);
  assert.equal(smtp.messages.length, before);
});

test('the sign-in form without, or with a wrong, CSRF token is 403 and sends nothing', async () => {
  const before = smtp.messages.length;
  const b = new Browser(t.app);
  await b.get('/signin');
  const missing = await b.post('/signin', { email: 'csrf@example.org' });
  assert.equal(missing.status, 403);
  assert.match(missing.body, /security token is missing/);
  const wrong = await b.post('/signin', { email: 'csrf@example.org', _csrf: 'x'.repeat(43) });
  assert.equal(wrong.status, 403);
  // A token copied from a page without the cookie that goes with it.
  const page = await new Browser(t.app).get('/signin');
  const stranger = await new Browser(t.app).post('/signin', { email: 'csrf@example.org', _csrf: csrfOf(page.body) });
  assert.equal(stranger.status, 403);
  assert.equal(smtp.messages.length, before);
});

test('a POST from another site is refused by Origin and by Sec-Fetch-Site', async () => {
  const before = smtp.messages.length;
  const b = new Browser(t.app);
  const page = await b.get('/signin');
  const form = { email: 'cross@example.org', _csrf: csrfOf(page.body) };
  assert.equal((await b.post('/signin', form, { origin: 'https://evil.example' })).status, 403);
  assert.equal((await b.post('/signin', form, { 'sec-fetch-site': 'cross-site' })).status, 403);
  assert.equal(smtp.messages.length, before);
  assert.equal((await b.post('/signin', form, { origin: 'http://council.test', 'sec-fetch-site': 'same-origin' })).status, 200);
});

test('confirming a link needs the CSRF token too (login CSRF)', async () => {
  const b = new Browser(t.app);
  const link = await requestLink(b, 'logincsrf@example.org');
  const code = decodeURIComponent(link.split('code=')[1]!);
  const victim = new Browser(t.app);
  const forged = await victim.post('/signin/verify', { code });
  assert.equal(forged.status, 403);
  assert.equal(victim.jar.has('ct_session'), false);
  assert.equal(await countAccounts('logincsrf@example.org'), 0, 'the link was not used');
});
