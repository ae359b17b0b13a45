// Agent registration over real HTTP, a real SMTP receiver and Debian's chromium: the request, the
// mailed link whose page decides nothing until its Approve or Deny button is pressed, RFC 8628
// polling (authorization_pending, slow_down growing the interval by 5 s, access_denied,
// expired_token), the key given exactly once, what a registration key may not do, revocation
// with the key itself, hostile input, and limits that never tell whether an account exists.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freePort } from '../../helpers/free-port.ts';
import { type Browser, chromium } from 'playwright-core';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { until } from '../../helpers/service.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
let smtp: SmtpReceiver;
let browser: Browser;
let base: string;
const clock = new ManualClock();

before(async () => {
  smtp = await startSmtpReceiver();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestContext({ clock, env: { BASE_URL: base, SMTP_URL: smtp.url, CLAIM_INTERVAL_SECONDS: '5', REGISTRATION_TTL_SECONDS: '1800' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});
after(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit =
    body === undefined
      ? { method: 'POST', headers }
      : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

let n = 0;
const newEmail = () => `agent-owner-${process.pid}-${++n}@example.org`;

async function register(email: string, agent = 'Research Agent') {
  const sent = smtp.messages.length;
  const res = await post('/agent/auth', { email, agent_name: agent, agent_uri: 'https://agent.example/about' });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const mail = await until('the approval mail arrived', async () => smtp.messages.slice(sent).find((m) => m.to.includes(email)), 20);
  const link = /https?:\/\/\S+\/agents\/approve\?code=\S+/.exec(mail.text)?.[0];
  assert.ok(link, mail.text);
  return { ...res.body, link, mail } as {
    registration_id: string;
    claim_token: string;
    claim_uri: string;
    interval: number;
    expires_in: number;
    link: string;
    mail: typeof mail;
  };
}

const claim = (r: { registration_id: string; claim_token: string }) =>
  post('/agent/auth/claim', { registration_id: r.registration_id, claim_token: r.claim_token });

async function decideInBrowser(link: string, button: 'Approve' | 'Deny') {
  const context = await browser.newContext();
  const page = await context.newPage();
  const res = await page.goto(link);
  assert.equal(res?.status(), 200);
  const text = await page.textContent('main');
  await page.click(`button:has-text("${button}")`);
  await page.waitForLoadState('load');
  if ((await page.locator('p.notice').count()) === 0) throw new Error(`no notice after ${button}: ${await page.content()}`);
  const after = await page.textContent('main');
  await context.close();
  return { before: text ?? '', after: after ?? '' };
}

test('approve in the browser, then the key is claimed exactly once; polling follows RFC 8628', async () => {
  const email = newEmail();
  const r = await register(email, 'Claude for Council');
  assert.match(r.registration_id, /^reg_/);
  assert.match(r.claim_token, /^ctc_/);
  assert.equal(r.claim_uri, `${base}/agent/auth/claim`);
  assert.equal(r.interval, 5);
  assert.equal(r.expires_in, 1800);
  assert.match(r.mail.text, /Claude for Council/);

  const first = await claim(r);
  assert.equal(first.status, 400);
  assert.equal(first.body.error, 'authorization_pending');
  assert.match(first.headers.get('cache-control') ?? '', /no-store/);
  // Faster than the interval: slow_down, and the interval grows by 5 s (RFC 8628 §3.5).
  const fast = await claim(r);
  assert.equal(fast.body.error, 'slow_down');
  assert.equal(fast.body.interval, 10);
  clock.advance(6_000);
  assert.equal((await claim(r)).body.error, 'slow_down', 'the grown interval holds');
  clock.advance(16_000);

  // Opening the link (as a mail scanner does) decides nothing.
  for (let i = 0; i < 2; i++) assert.equal((await fetch(r.link)).status, 200);
  assert.equal((await claim(r)).body.error, 'authorization_pending');
  assert.equal(await t.ctx.services.accounts.findByEmail(email), null, 'no account is made by opening the link');

  const seen = await decideInBrowser(r.link, 'Approve');
  assert.match(seen.before, /Claude for Council/);
  assert.match(seen.before, /https:\/\/agent\.example\/about/);
  assert.match(seen.before, /public\.read/);
  assert.match(seen.before, /public\.ai/);
  assert.match(seen.after, /Approved/);
  const account = await t.ctx.services.accounts.findByEmail(email);
  assert.ok(account, 'approving made the account');

  clock.advance(30_000);
  const got = await claim(r);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.match(got.body.api_key, /^ctk_[A-Za-z0-9]{32}$/);
  assert.equal(got.body.scope, 'public.read public.ai');
  assert.equal(got.headers.get('cache-control'), 'no-store');
  clock.advance(30_000);
  const again = await claim(r);
  assert.equal(again.status, 400);
  assert.equal(again.body.error, 'invalid_grant', 'the registration is spent');

  // The key: personal, public.read public.ai, listed with the person's keys.
  const key = got.body.api_key as string;
  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.status, 200);
  const listed = await t.ctx.services.credentials.keys.list(accountActor(account.id), { accountId: account.id });
  assert.equal(listed.length, 1);
  assert.equal(listed[0]!.kind, 'registration');
  assert.deepEqual(listed[0]!.scopes, ['public.read', 'public.ai']);
  assert.equal(listed[0]!.owner.type, 'personal');
  // It never reaches personal or team data.
  const follows = await fetch(`${base}/api/v2/me/follows`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(follows.status, 403);
  const team = await fetch(`${base}/api/v2/team/follows`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(team.status, 403);

  // Revoked with itself as the Bearer credential.
  const revoked = await post('/agent/auth/revoke', undefined, { authorization: `Bearer ${key}` });
  assert.equal(revoked.status, 200);
  assert.equal((await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status, 401);
  const log = await t.ctx.services.securityLog.read(accountActor(account.id));
  assert.deepEqual(
    log.map((e) => [e.type, (e.data as { via: string }).via]),
    [
      ['credential.revoked', 'revocation_endpoint'],
      ['credential.issued', 'agent_registration'],
    ],
  );
});

test("a claim with another registration's token is refused and changes neither", async () => {
  const a = await register(newEmail());
  const b = await register(newEmail());
  const crossed = await claim({ registration_id: a.registration_id, claim_token: b.claim_token });
  assert.equal(crossed.status, 400);
  assert.equal(crossed.body.error, 'invalid_grant');
  for (const bad of [
    { registration_id: a.registration_id, claim_token: 'ctc_short' },
    { registration_id: 'reg_unknown', claim_token: a.claim_token },
    { registration_id: 42, claim_token: a.claim_token },
    {},
  ]) {
    assert.equal((await post('/agent/auth/claim', bad)).body.error, 'invalid_grant');
  }
  // Neither registration counted a poll: each one's first real claim is pending, not slow_down.
  assert.equal((await claim(a)).body.error, 'authorization_pending');
  assert.equal((await claim(b)).body.error, 'authorization_pending');
});

test('deny in the browser: access_denied; the spent link decides nothing more; a POST without the CSRF token is refused', async () => {
  const r = await register(newEmail());
  const forged = await fetch(`${base}/agents/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: new URL(r.link).searchParams.get('code')!, decision: 'approve' }).toString(),
  });
  assert.equal(forged.status, 403);
  clock.advance(60_000);
  assert.equal((await claim(r)).body.error, 'authorization_pending', 'the forged approval changed nothing');
  const seen = await decideInBrowser(r.link, 'Deny');
  assert.match(seen.after, /Denied/);
  clock.advance(60_000);
  const denied = await claim(r);
  assert.equal(denied.body.error, 'access_denied');
  assert.equal((await fetch(r.link)).status, 400, 'the link is spent');
});

test('a registration nobody decides expires: expired_token, and its page is gone', async () => {
  const r = await register(newEmail());
  clock.advance(1801_000);
  assert.equal((await claim(r)).body.error, 'expired_token');
  assert.equal((await fetch(r.link)).status, 400);
});

test('hostile or malformed requests get 400 or 415 with a reason and file nothing', async () => {
  const before = smtp.messages.length;
  const cases: unknown[] = [
    { agent_name: 'x' },
    { email: 'not-an-email', agent_name: 'x' },
    { email: newEmail() },
    { email: newEmail(), agent_name: '   ' },
    { email: newEmail(), agent_name: 'a'.repeat(101) },
    { email: newEmail(), agent_name: 'bad\u0000name' },
    { email: newEmail(), agent_name: 'x', agent_uri: 'http://agent.example/' },
    { email: newEmail(), agent_name: 'x', agent_uri: 'javascript:alert(1)' },
    { email: newEmail(), agent_name: 'x', scope: 'team.notes.write' },
    [],
    'a string',
  ];
  for (const body of cases) {
    const res = await post('/agent/auth', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error, 'invalid_request');
    assert.ok(res.body.error_description);
  }
  const text = await fetch(`${base}/agent/auth`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=x' });
  assert.equal(text.status, 415);
  const broken = await post('/agent/auth', '{"email":');
  assert.equal(broken.status, 400);
  // Revocation needs a registration key as Bearer.
  assert.equal((await post('/agent/auth/revoke', undefined)).status, 401);
  assert.equal((await post('/agent/auth/revoke', undefined, { authorization: 'Bearer ctk_nope' })).status, 401);
  const owner = await t.ctx.services.accounts.create({ email: newEmail() });
  const scoped = await t.ctx.services.credentials.keys.create({ accountId: owner.id, name: 'mine', scopes: ['public.read'] });
  const refused = await post('/agent/auth/revoke', undefined, { authorization: `Bearer ${scoped.key}` });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, 'unsupported_token_type');
  assert.equal((await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${scoped.key}` } })).status, 200, 'a scoped key is not revoked here');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(smtp.messages.length, before, 'no mail for a refused request');
});

test('limits per address and per client; the answer is the same whether or not an account exists', async () => {
  clock.advance(2 * 3600_000);
  const existing = await t.ctx.services.accounts.create({ email: newEmail() });
  const known = await register(existing.email);
  const unknown = await register(newEmail());
  assert.deepEqual(Object.keys(known).sort(), Object.keys(unknown).sort());
  assert.equal(known.mail.subject, unknown.mail.subject);
  // Per address: the fourth in an hour is refused, for a known address as for any other.
  await register(existing.email);
  await register(existing.email);
  const fourth = await post('/agent/auth', { email: existing.email, agent_name: 'again' });
  assert.equal(fourth.status, 429);
  assert.equal(fourth.body.error, 'rate_limited');
  // Per client address: ten in an hour from here (four so far), then refused for any address.
  for (let i = 0; i < 6; i++) await register(newEmail());
  const eleventh = await post('/agent/auth', { email: newEmail(), agent_name: 'one more' });
  assert.equal(eleventh.status, 429);
  assert.equal(eleventh.body.error, 'rate_limited');
});
