// A real browser (Debian's chromium) through the consent: a signed-out person opens an app's
// authorization request, signs in by the emailed link (read from a real SMTP receiver), comes back
// to the consent, chooses a team and approves; the browser lands on the app's redirect URI with a
// code that oauth4webapi redeems for a team token (org_id).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { operator } from '../../../src/kernel/actor.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { freePort } from '../../helpers/free-port.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { linkIn } from '../web/browser.ts';

let t: TestContext;
let smtp: SmtpReceiver;
let browser: Browser;
let base: string;
let teamId: string;
const REDIRECT = 'http://127.0.0.1:7777/callback';

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  smtp = await startSmtpReceiver();
  t = await startTestContext({ env: { BASE_URL: base, SMTP_URL: smtp.url } });
  const owner = await t.ctx.services.accounts.create({ email: 'consent@example.org' });
  teamId = (await t.ctx.services.accounts.teams.create(operator, { name: 'Budget Watch', ownerAccountId: owner.id, features: ['team_data'] })).id;
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});

test('sign in by email link from the consent, come back to it, choose the team, approve: a team token', async () => {
  const http = { [oauth.allowInsecureRequests]: true as const };
  const as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { ...http, algorithm: 'oauth2' }));
  const client = (await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT], client_name: 'Chromium Agent', token_endpoint_auth_method: 'none' }, http),
  )) as oauth.Client;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'public.read team.notes.read',
    state,
  })) {
    url.searchParams.set(k, v);
  }

  const context = await browser.newContext();
  const page = await context.newPage();
  // The app's redirect URI: the browser is caught arriving there.
  let callback: URL | null = null;
  await page.route('http://127.0.0.1:7777/**', async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the app' });
  });

  await page.goto(url.toString());
  assert.equal(new URL(page.url()).pathname, '/signin', 'signed out: sent to sign in first');
  await page.fill('input[name="email"]', 'consent@example.org');
  await page.click('button[type="submit"]');
  await page.waitForSelector('text=We sent a sign-in link');
  const mail = smtp.messages.find((m) => m.to.includes('consent@example.org'));
  assert.ok(mail, 'the sign-in mail arrived over SMTP');
  await page.goto(linkIn(mail.text));
  await page.click('button:has-text("Sign in")');
  await page.waitForURL((u) => u.pathname === '/oauth/authorize');
  assert.match(await page.title(), /Connect Chromium Agent\?/);
  const text = await page.textContent('main');
  assert.match(text!, /127\.0\.0\.1:7777/);
  assert.match(text!, /Read the team's shared notes/);

  await page.check(`input[name="owner"][value="${teamId}"]`);
  await page.click('button[value="approve"]');
  await page.waitForURL((u) => u.origin === 'http://127.0.0.1:7777');
  assert.ok(callback);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, http),
  );
  assert.equal(tokens.org_id, teamId);
  assert.equal(tokens.scope, 'public.read team.notes.read');
  await context.close();
});
