// A team's first morning, in a real browser (Debian's chromium through playwright-core) with real
// mail (the SMTP receiver): a new team owner signs in by the emailed link, reaches the dashboard
// from the account page, finds a bill with the site search, follows it and sets the team's stance
// from the bill's public page, adds two alderpersons to its target list and marks one contacted,
// adds a chart of the bill chosen with the record picker, reads the scorecard, and invites a
// volunteer by email before they have an account; the volunteer opens the mailed link in a second
// browser context, lands on the team's dashboard, and watches the team's view of the bill change
// without reloading. Every step is screenshotted into
// test-artifacts/journey/ (CI keeps it). Then axe-core audits every account and dashboard page.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { operator } from '../../../src/kernel/actor.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { freePort } from '../../helpers/free-port.ts';
import { type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { linkIn } from '../web/browser.ts';
import { eventually } from './helpers.ts';

const artifacts = new URL('../../../test-artifacts/journey/', import.meta.url);
const OWNER = 'organiser@transit-riders.example';
const MEMBER = 'volunteer@transit-riders.example';

let t: TestContext;
let smtp: SmtpReceiver;
let browser: Browser;
let base: string;
let seeded: Seeded;
let teamId: string;
let step = 0;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  smtp = await startSmtpReceiver();
  t = await startTestContext({ env: { BASE_URL: base, SMTP_URL: smtp.url } });
  seeded = await seedPublicData(t.ctx.db);
  const owner = await t.ctx.services.accounts.create({ email: OWNER, name: 'Olu Organiser' });
  teamId = (
    await t.ctx.services.accounts.teams.create(operator, {
      name: 'Transit Riders Alliance',
      ownerAccountId: owner.id,
      features: ['team_data', 'advocacy', 'analytics', 'people'],
    })
  ).id;
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});

/** A screenshot of the whole page; a public record page (long) down to its action panel only. */
async function shot(page: Page, name: string): Promise<void> {
  const path = new URL(`${String(++step).padStart(2, '0')}-${name}.png`, artifacts).pathname;
  const panel = await page.$('section.act');
  const box = panel ? await panel.boundingBox() : null;
  if (box) await page.screenshot({ path, clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: box.y + box.height + 16 } });
  else await page.screenshot({ path, fullPage: true });
}

/** Signs `email` in by the link the SMTP receiver got; the browser ends where sign-in sends it. */
async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.fill('input[name="email"]', email);
  await page.click('main button[type="submit"]');
  await page.waitForSelector('text=We sent a sign-in link');
  const mail = await eventuallyMail(email);
  await page.goto(linkIn(mail));
  await page.click('main button:has-text("Sign in")');
  await page.waitForURL((u) => u.pathname !== '/signin/verify');
}

async function eventuallyMail(email: string): Promise<string> {
  await eventually(() => smtp.messages.some((m) => m.to.includes(email)), 10_000, `mail to ${email}`);
  return smtp.messages.findLast((m) => m.to.includes(email))!.text;
}

const record = () => seeded.rollCalls[0]!.recordNumber;
const markNotReloaded = (page: Page) => page.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
const notReloaded = (page: Page) => page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded === true);

let owner: BrowserContext;
let member: BrowserContext;
let chartForm: string;

test('a new team owner finds a bill, follows it, takes a stance and works its target list from the public page; a member sees it live', async () => {
  owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await owner.newPage();

  // Sign in: one team, so the dashboard is where sign-in lands.
  await signIn(page, OWNER);
  assert.equal(new URL(page.url()).pathname, `/dashboard/${teamId}/legislation`);
  await shot(page, 'signed-in-dashboard');

  // The account page links the team's dashboard; the header has Dashboard and Account.
  await page.click('header.site a:has-text("Account")');
  await page.waitForURL(`${base}/account`);
  await shot(page, 'account');
  await page.click(`main a[href="/dashboard/${teamId}"]`);
  await page.waitForURL(`${base}/dashboard/${teamId}/legislation`);
  assert.match((await page.textContent('main'))!, /follows no bills/);

  // The site search finds the bill; its public page shows what the team may do there.
  await page.click('header.site a:has-text("Search")');
  await page.fill('main form[role="search"] input[name="q"]', record());
  await page.click('main form[role="search"] button[type="submit"]');
  await page.waitForSelector(`main a[href="/matters/${record()}"]`);
  await shot(page, 'search');
  await page.click(`main a[href="/matters/${record()}"]`);
  await page.waitForSelector('[data-act-ready="true"]');
  await shot(page, 'bill-public-page-signed-in');

  // Follow it for the team, and support it.
  await page.click('button:has-text("Follow (Transit Riders Alliance)")');
  await page.waitForSelector('button:has-text("Stop following (Transit Riders Alliance)")');
  await page.click('.act button:text-is("Support")');
  await page.waitForSelector('.act [data-stance="supports"]');
  await shot(page, 'followed-and-supported');

  // Two alderpersons on the target list, one marked contacted.
  const [first, second] = [seeded.alders[0]!, seeded.alders[1]!];
  for (const alder of [first, second]) {
    await page.selectOption('.act select[name="personId"]', alder.id);
    await page.click('.act button:has-text("Add to the target list")');
    await page.waitForSelector(`.act li[data-person="${alder.id}"]`);
  }
  await page.click(`.act li[data-person="${first.id}"] button:has-text("contacted")`);
  await page.waitForSelector(`.act li[data-person="${first.id}"]:has-text("— contacted")`);
  await shot(page, 'targets');

  // On an alderperson's page: the team's bill to add them to, and a note.
  await page.goto(`${base}/people/${first.id}`);
  await page.waitForSelector('[data-act-ready="true"] select[name="record"]');
  await shot(page, 'person-public-page-signed-in');

  // The Legislation list links the bill to its public page and shows the stance.
  await page.goto(`${base}/dashboard/${teamId}/legislation`);
  await page.waitForSelector(`tr[data-record="${record()}"] td.stance[data-stance="supports"]`);
  assert.ok(await page.$(`tr[data-record="${record()}"] a[href="/matters/${record()}"]`), 'the bill links its public page');
  await shot(page, 'legislation');

  // Analytics: the starter dashboard, then a roll-call chart of the bill chosen with the picker.
  await page.click('nav.team a:has-text("Analytics")');
  await page.waitForSelector('.widget');
  await shot(page, 'analytics-starter');
  await page.click('main a:has-text("Roll call of a bill")');
  await page.waitForSelector('form.chart-form [role="combobox"]');
  chartForm = new URL(page.url()).pathname;
  await page.fill('form.chart-form [role="combobox"]', record());
  await page.waitForSelector('form.chart-form [role="option"]');
  await shot(page, 'chart-picker-open');
  // Chosen with the keyboard (APG combobox): the first match, Enter.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('form.chart-form input[name="recordNumber"]'), record(), 'the picker chose the bill');
  await page.click('form.chart-form button:has-text("Preview")');
  await page.waitForSelector('section.preview svg');
  await shot(page, 'chart-preview');
  await page.click('section.preview button:has-text("Add this chart")');
  await page.waitForSelector('.widget[data-kind="roll_call"] svg');
  await shot(page, 'chart-on-dashboard');

  // The scorecard: the supported bill's latest roll call, and how each alderperson voted on it.
  await page.click('nav.team a:has-text("Scorecard")');
  await page.waitForSelector(`tr[data-record="${record()}"]`);
  assert.match((await page.textContent(`tr[data-record="${record()}"]`))!, /Support/);
  assert.ok((await page.$$('table.scorecard tbody tr')).length > 0, 'alderpersons scored');
  await page.click('table.scorecard tbody tr:first-child summary');
  await shot(page, 'scorecard');

  // The owner invites a volunteer who has never signed in; the mail's link signs them in.
  await page.click('nav.team a:has-text("Members")');
  await page.fill('main input[name="email"]', MEMBER);
  await page.click('main button:has-text("Invite by email")');
  await page.waitForSelector(`main td:has-text("${MEMBER}")`);
  assert.match((await page.textContent('main'))!, /We emailed them a link/);
  await shot(page, 'member-invited');
  const invitation = smtp.messages.find((m) => m.to.includes(MEMBER));
  assert.ok(invitation, 'the invitation was mailed');
  assert.match(invitation.subject, /Olu Organiser .* added you to Transit Riders Alliance/);

  member = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const watcher = await member.newPage();
  await watcher.goto(linkIn(invitation.text));
  await shot(watcher, 'member-confirms-invitation');
  await watcher.click('main button:has-text("Sign in")');
  await watcher.waitForURL(`${base}/dashboard/${teamId}/legislation`);
  await shot(watcher, 'member-lands-on-dashboard');

  // The member opens the team's view of the bill.
  await watcher.click(`tr[data-record="${record()}"] a:has-text("Team view: notes")`);
  await watcher.waitForSelector('[data-stance="supports"]');
  await eventually(() => t.ctx.services.live.hub.count(teamId) === 1, 5000, 'the member’s page subscribed');
  await markNotReloaded(watcher);
  await shot(watcher, 'member-team-view');

  // The owner acts on the public page; the member's open page follows without a reload.
  await page.goto(`${base}/matters/${record()}`);
  await page.waitForSelector('[data-act-ready="true"]');
  await page.click('.act button:text-is("Oppose")');
  await page.waitForSelector('.act [data-stance="opposes"]');
  await watcher.waitForSelector('#live [data-stance="opposes"]');
  await page.fill('.act textarea[name="body"]', 'Call the ward offices before Thursday’s committee hearing.');
  await page.click('.act button:has-text("Add team note")');
  await watcher.waitForSelector('#live article.note:has-text("before Thursday")');
  await page.click(`.act li[data-person="${second.id}"] button:has-text("contacted")`);
  await watcher.waitForSelector(`#live tr[data-person="${second.id}"]:has-text("Contacted")`);
  assert.equal(await notReloaded(watcher), true, 'the member’s page was never reloaded');
  await shot(page, 'owner-public-page-after');
  await shot(watcher, 'member-sees-changes');
});

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

test('every account and dashboard page passes axe-core with no serious or critical violation', async () => {
  // The pages' CSP allows scripts from this site only; the audit's script is let in by the browser.
  const cookies = await owner.cookies();
  const audit = await browser.newContext({ bypassCSP: true });
  await audit.addCookies(cookies);
  const page = await audit.newPage();
  const follow = await t.ctx.db.selectFrom('follows').select('id').where('team_id', '=', teamId).execute();
  const dash = `/dashboard/${teamId}`;
  const paths = [
    '/account',
    '/account/follows',
    '/account/webhooks',
    '/account/security',
    `/act/matter/${record()}`,
    ...['legislation', 'positions', 'follows', 'notes', 'targets', 'analytics', 'people', 'settings/api-keys', 'settings/members'].map((s) => `${dash}/${s}`),
    `${dash}/scorecard`,
    chartForm,
    `${dash}/follows/${follow[0]!.id}`,
    `${dash}/records/matter/${record()}`,
    `${dash}/records/person/${seeded.alders[0]!.id}`,
    `${dash}/records/meeting/${seeded.meetings[0]!.id}`,
    `${dash}/records/body/${seeded.meetings[0]!.bodyId}`,
  ];
  for (const path of paths) {
    const res = await page.goto(`${base}${path}`);
    assert.equal(res?.status(), 200, path);
    await page.addScriptTag({ content: axe.source });
    const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResult;
    assert.ok(Array.isArray(result.violations), 'axe ran');
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
      [],
      `${path} has accessibility violations`,
    );
  }
  await shot(page, 'audited-last-page');
  await audit.close();
  await owner.close();
  await member?.close();
});
