import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { Browser, csrfOf, linkIn, pathOf, signInViaOutbox } from './browser.ts';

let t: TestContext;
const outbox = () => t.ctx.services.mailer.outbox();

before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

test('sign out ends this browser only', async () => {
  const laptop = await signInViaOutbox(t.app, outbox, 'two-browsers@example.org');
  const phone = await signInViaOutbox(t.app, outbox, 'two-browsers@example.org');
  const page = await laptop.get('/account');
  assert.match(page.body, /signed in on 2 browsers/);
  const out = await laptop.post('/signout', { _csrf: csrfOf(page.body) });
  assert.equal(out.status, 303);
  assert.ok(
    out.setCookies.some((c) => /^ct_session=;.*Max-Age=0/.test(c)),
    'the cookie is cleared',
  );
  assert.equal((await laptop.get('/account')).status, 303);
  assert.equal((await phone.get('/account')).status, 200);
});

test('sign out everywhere ends every session of the account, even with the old cookie replayed', async () => {
  const a = await signInViaOutbox(t.app, outbox, 'everywhere@example.org');
  const b = await signInViaOutbox(t.app, outbox, 'everywhere@example.org');
  const other = await signInViaOutbox(t.app, outbox, 'someone-else@example.org');
  const stolen = a.cookieHeader();
  const page = await b.get('/account');
  const res = await b.post('/signout/everywhere', { _csrf: csrfOf(page.body) });
  assert.equal(res.status, 303);
  assert.equal((await a.get('/account')).status, 303);
  assert.equal((await b.get('/account')).status, 303);
  const replay = await t.app.inject({ method: 'GET', url: '/account', headers: { cookie: stolen } });
  assert.equal(replay.statusCode, 303);
  assert.equal((await other.get('/account')).status, 200);
});

test('sign out without the CSRF token is 403 and the session lives on', async () => {
  const b = await signInViaOutbox(t.app, outbox, 'keep-me@example.org');
  assert.equal((await b.post('/signout', {})).status, 403);
  assert.equal((await b.post('/signout/everywhere', { _csrf: 'nope' })).status, 403);
  assert.equal((await b.get('/account')).status, 200);
});

test('the outbox keeps mail outside production, at /dev/mailbox as HTML and JSON', async () => {
  const b = new Browser(t.app);
  await b.submit('/signin', '/signin', { email: 'outbox@example.org' });
  const json = await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
  assert.equal(json.statusCode, 200);
  const body = json.json() as { transport: string; messages: { to: string; text: string }[] };
  assert.equal(body.transport, 'outbox');
  const mail = body.messages.find((m) => m.to === 'outbox@example.org');
  assert.ok(mail);
  const negotiated = await t.app.inject({ method: 'GET', url: '/dev/mailbox', headers: { accept: 'application/json' } });
  assert.ok((negotiated.json() as typeof body).messages.some((m) => m.to === 'outbox@example.org'));
  const html = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
  assert.equal(html.statusCode, 200);
  assert.match(String(html.headers['content-type']), /text\/html/);
  assert.match(html.body, /outbox@example\.org/);
  // The link from the outbox signs in.
  const confirm = await b.get(pathOf(linkIn(mail.text)));
  assert.equal(confirm.status, 200);
});

test('the outbox answers only callers on this machine; others get the 404 of an unknown page, whatever they forward', async () => {
  await new Browser(t.app).submit('/signin', '/signin', { email: 'not-yours@example.org' });
  // TRUST_PROXY names the outside peer as a proxy: its X-Forwarded-For still does not count here.
  const proxied = await startTestContext({ env: { TRUST_PROXY: '203.0.113.0/24' } });
  try {
    for (const app of [t.app, proxied.app]) {
      for (const url of ['/dev/mailbox', '/dev/mailbox.json']) {
        const unknown = await app.inject({ method: 'GET', url: `${url}-nowhere`, remoteAddress: '203.0.113.5' });
        for (const remoteAddress of ['203.0.113.5', '::ffff:203.0.113.5', '10.0.0.7', '2001:db8::1']) {
          for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { 'x-forwarded-for': '::1', accept: 'application/json' }]) {
            const res = await app.inject({ method: 'GET', url, remoteAddress, headers });
            assert.equal(res.statusCode, 404, `${url} from ${remoteAddress}`);
            assert.equal(res.headers['content-type'], unknown.headers['content-type']);
            assert.equal(res.body, unknown.body.replace(`${url}-nowhere`, url));
          }
        }
        for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
          assert.equal((await app.inject({ method: 'GET', url, remoteAddress })).statusCode, 200, `${url} from ${remoteAddress}`);
        }
      }
    }
    assert.match((await t.app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '::1' })).body, /not-yours@example\.org/);
  } finally {
    await proxied.close();
  }
});

test('values on pages are escaped', async () => {
  const b = new Browser(t.app);
  const res = await b.submit('/signin', '/signin', { email: '<script>alert(1)</script>@x' });
  assert.equal(res.status, 400);
  assert.doesNotMatch(res.body, /<script>/);
  assert.match(res.body, /&lt;script&gt;/);
});
