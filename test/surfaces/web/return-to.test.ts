// Where sign-in returns to: the page a person came from (a public page's `?return=`, a signed-in
// page they were sent away from), only ever a path on this site; else the dashboard of their one
// team; else the account page. Open-redirect forms are refused however they are spelled.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { safeReturnPath } from '../../../src/surfaces/web/return-to.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { Browser, csrfOf, linkIn, pathOf } from './browser.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

test('only a path on this site is a return path', () => {
  for (const ok of ['/matters/O2023-1', '/account/follows', '/search?q=a%20b#r', '/dashboard/x/records/matter/O2023-1']) {
    assert.equal(safeReturnPath(ok), ok, ok);
  }
  const hostile = [
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/%2F%2Fevil.example',
    '/%2fevil.example',
    '/%5Cevil.example',
    '/%5c%5cevil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    '/ /evil.example',
    'evil.example',
    '',
    '/signin',
    '/signin/verify?code=x',
    '/signout',
    '/%E0%A4%A',
    `/${'a'.repeat(4000)}`,
    42,
    null,
  ];
  for (const bad of hostile) assert.equal(safeReturnPath(bad), null, JSON.stringify(bad));
});

let n = 0;
/** Signs in through the real flow in `b`, returning where confirming the link sent the browser. */
async function signIn(b: Browser, email: string, first = '/signin'): Promise<string | undefined> {
  const form = await b.get(first);
  assert.equal(form.status, 200, form.body);
  assert.equal((await b.post('/signin', { _csrf: csrfOf(form.body), email })).status, 200);
  const mail = t.ctx.services.mailer.outbox().find((m) => m.to === email)!; // newest first
  const confirm = await b.get(pathOf(linkIn(mail.text)));
  const code = /name="code" value="([^"]+)"/.exec(confirm.body)![1]!;
  const done = await b.post('/signin/verify', { _csrf: csrfOf(confirm.body), code });
  assert.equal(done.status, 303);
  return done.location;
}

test('a public page’s sign-in link comes back to that page; a hostile one goes to the account', async () => {
  assert.equal(await signIn(new Browser(t.app), `back-${++n}@example.org`, '/signin?return=%2Fmatters%2FO2023-0001'), '/matters/O2023-0001');
  for (const evil of ['//evil.example', '/%5Cevil.example', '/\\evil.example', 'https://evil.example', '/%2F%2Fevil.example']) {
    const landed = await signIn(new Browser(t.app), `evil-${++n}@example.org`, `/signin?return=${encodeURIComponent(evil)}`);
    assert.equal(landed, '/account', evil);
  }
});

test('a signed-in page sends a signed-out person to sign in and back again', async () => {
  const b = new Browser(t.app);
  const away = await b.get('/account/follows');
  assert.equal(away.status, 303);
  assert.equal(away.location, '/signin');
  assert.equal(await signIn(b, `follows-${++n}@example.org`), '/account/follows');
  assert.equal((await b.get('/account/follows')).status, 200);
});

test('without a page to return to: the dashboard of a one-team person, else the account page', async () => {
  const email = `owner-${++n}@example.org`;
  const owner = await t.ctx.services.accounts.create({ email });
  const team = await t.ctx.services.accounts.teams.create(operator, { name: 'Transit Riders', ownerAccountId: owner.id, features: ['team_data'] });
  const b = new Browser(t.app);
  assert.equal(await signIn(b, email), `/dashboard/${team.id}`);
  const account = await b.get('/account');
  assert.match(account.body, new RegExp(`<a href="/dashboard/${team.id}"><strong>Dashboard</strong></a>`), 'the account page links the dashboard');
  assert.match(account.body, new RegExp(`<header class="site">[\\s\\S]*<a href="/dashboard/${team.id}">Dashboard</a>[\\s\\S]*<a href="/account"`));
  await t.ctx.services.accounts.teams.create(operator, { name: 'Second Team', ownerAccountId: owner.id, features: ['team_data'] });
  const switcher = await b.get('/account');
  assert.match(
    switcher.body,
    /<details class="teams"><summary>Dashboards<\/summary><ul><li><a href="\/dashboard\/[^"]+">(Transit Riders|Second Team)<\/a><\/li>/,
  );
  assert.equal(await signIn(new Browser(t.app), email), '/account', 'two teams: the account page');
});
