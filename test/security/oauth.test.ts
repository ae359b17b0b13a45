// Hostile input at the OAuth routes never reaches a 5xx: the JSON endpoints answer in RFC 6749
// §5.2's shape, the authorization endpoint with a page, and a credential put in a URL is refused.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestContext } from '../helpers/context.ts';
import { signInViaOutbox } from '../surfaces/web/browser.ts';

const t = await startTestContext();
after(async () => {
  await t.close();
});

const oauthShape = (body: string) => {
  const parsed = JSON.parse(body);
  assert.equal(typeof parsed.error, 'string');
  assert.equal(typeof parsed.error_description, 'string');
  return parsed.error as string;
};

test('hostile bodies at /oauth/token, /oauth/register and /oauth/revoke: 4xx in the RFC shape, never 5xx', async () => {
  const bodies: [string, string][] = [
    ['application/x-www-form-urlencoded', 'grant_type=authorization_code&grant_type=refresh_token'],
    ['application/x-www-form-urlencoded', `grant_type=authorization_code&code=${'a'.repeat(5000)}&client_id=x`],
    ['application/x-www-form-urlencoded', 'grant_type=refresh_token&refresh_token=ctr_%00&client_id=%00'],
    ['application/x-www-form-urlencoded', `grant_type=refresh_token&refresh_token=ctr_x&client_id=${'c'.repeat(3000)}`],
    ['application/x-www-form-urlencoded', 'grant_type=authorization_code&code=abc&client_id=ctc_x&resource=a&resource=b'],
    ['application/json', '{"grant_type":["authorization_code"],"code":{"a":1}}'],
    ['application/json', '{"redirect_uris":[{"a":1}]}'],
    ['application/json', '{"redirect_uris":"https://a.example/cb"}'],
    ['application/json', `{"redirect_uris":["https://a.example/${'x'.repeat(3000)}"]}`],
    ['application/json', '{"redirect_uris":["https://a.example/cb"],"client_name":"\\u0000"}'],
    ['application/json', '[1,2'],
    ['application/json', 'null'],
    ['text/plain', 'token=ctr_x'],
  ];
  for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke']) {
    for (const [type, payload] of bodies) {
      const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': type }, payload });
      assert.ok(res.statusCode < 500, `${path} ${payload.slice(0, 60)} → ${res.statusCode} ${res.body}`);
      if (res.statusCode >= 400) oauthShape(res.body);
      else assert.equal(path, '/oauth/revoke', `${path} ${payload.slice(0, 60)} → ${res.statusCode}`);
    }
  }
  assert.equal((await t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length, 0);
});

test('a credential in the URL of an OAuth route is refused', async () => {
  for (const url of ['/oauth/token?access_token=cto_x', '/oauth/revoke?token=ctr_x']) {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token',
    });
    assert.equal(res.statusCode, 400, url);
    assert.equal(oauthShape(res.body), 'invalid_request');
  }
  // The authorization endpoint is a page for people: its framework errors are pages too.
  const page = await t.app.inject({ method: 'GET', url: '/oauth/authorize?client_id=%zz' });
  assert.equal(page.statusCode, 400);
  assert.match(String(page.headers['content-type']), /text\/html/);
});

test('hostile authorization requests get a page, never a 5xx, never a redirect to an unregistered place', async () => {
  const browser = await signInViaOutbox(t.app, () => t.ctx.services.mailer.outbox(), 'hostile-authorize@example.org');
  const queries = [
    'client_id=a&client_id=b',
    `client_id=${'x'.repeat(3000)}`,
    'client_id=https://%5B::1%5D/x',
    'client_id=https://user:pw@example.org/c.json',
    'client_id=https://example.org/c.json%23frag',
    'client_id=ftp://example.org/c.json',
    'response_type=code',
    'client_id=%00',
  ];
  for (const q of queries) {
    const res = await browser.get(`/oauth/authorize?${q}`);
    assert.equal(res.status, 400, `${q} → ${res.status} ${res.body.slice(0, 200)}`);
    assert.equal(res.location, undefined, q);
    assert.match(String(res.headers['content-type']), /text\/html/);
  }
  // The consent POST without its CSRF token changes nothing.
  const forged = await browser.post('/oauth/authorize', { client_id: 'x', decision: 'approve' });
  assert.equal(forged.status, 403);
  // With the token but from another site (a sandboxed frame posts with Origin: null): refused.
  const page = await browser.get('/account');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  for (const site of ['cross-site', 'same-site']) {
    const res = await browser.post('/oauth/authorize', { _csrf: csrf, client_id: 'x', decision: 'approve' }, { origin: 'null', 'sec-fetch-site': site });
    assert.equal(res.status, 403, site);
    assert.match(res.body, /another site/);
  }
});
