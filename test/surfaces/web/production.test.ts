import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { Browser, csrfOf, linkIn, pathOf } from './browser.ts';

let t: TestContext;

before(async () => {
  t = await startTestContext({ env: { NODE_ENV: 'production', BASE_URL: 'https://council.example' } });
});
after(async () => {
  await t.close();
});

test('in production /dev/mailbox does not exist', async () => {
  for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 404, url);
  }
});

test('over https the cookies are Secure, and a POST from the site itself is accepted', async () => {
  const b = new Browser(t.app);
  const form = await b.get('/signin');
  assert.ok(form.setCookies.every((c) => /; Secure/.test(c) && /; HttpOnly/.test(c) && /; SameSite=Lax/.test(c)));
  const sent = await b.post(
    '/signin',
    { _csrf: csrfOf(form.body), email: 'secure@example.org' },
    { origin: 'https://council.example', 'sec-fetch-site': 'same-origin' },
  );
  assert.equal(sent.status, 200);
  // Without SMTP_URL the mail is still kept (and logged) in production, only not served.
  const mail = t.ctx.services.mailer.outbox().find((m) => m.to === 'secure@example.org')!;
  assert.match(mail.text, /^https:\/\/council\.example\/signin\/verify\?code=/m);
  const confirm = await b.get(pathOf(linkIn(mail.text)));
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  const done = await b.post('/signin/verify', { _csrf: csrfOf(confirm.body), code }, { origin: 'https://council.example' });
  assert.equal(done.status, 303);
  const cookie = done.setCookies.find((c) => c.startsWith('ct_session='))!;
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; SameSite=Lax/);
  // The http origin of the same host is another site.
  const page = await b.get('/account');
  assert.equal((await b.post('/signout', { _csrf: csrfOf(page.body) }, { origin: 'http://council.example' })).status, 403);
});
