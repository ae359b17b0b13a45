// A real browser (Debian's chromium through playwright-core) on an open Legislation page: a write
// through v2 with a team key appears on the page without a reload, and a stance set with the
// page's own form is shown in place.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freePort } from '../../helpers/free-port.ts';
import { type Browser, chromium, type Page } from 'playwright-core';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { api } from '../v2/team-helpers.ts';
import { type DashboardTeam, dashboardTeam, eventually } from './helpers.ts';

let t: TestContext;
let seeded: Seeded;
let team: DashboardTeam;
let browser: Browser;
let base: string;

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestContext({ env: { BASE_URL: base } });
  seeded = await seedPublicData(t.ctx.db);
  team = await dashboardTeam(t);
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
after(async () => {
  await browser?.close();
  await t?.close();
});

async function openLegislation(session: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'ct_session', value: session, url: base }]);
  const page = await context.newPage();
  const res = await page.goto(`${base}/dashboard/${team.id}/legislation`);
  assert.equal(res?.status(), 200);
  return page;
}

// A live change is pushed to open pages at once; the waits below are bounded by the helper's
// PAGE_BOUND_MS, for a loaded CI machine, not a measure of how fast (no timing assertions in tests).

test('a stance set through v2 appears on the open Legislation page, without reload', async () => {
  const record = seeded.rollCalls[0]!.recordNumber;
  const follow = await api(t)(team.keys.owner, 'POST', '/team/follows', { type: 'legislation', refId: record, label: 'Watch' });
  assert.equal(follow.statusCode, 201, follow.body);
  const page = await openLegislation(team.sessions.member);
  await page.waitForSelector(`tr[data-record="${record}"] td.stance[data-stance="none"]`);
  // The page's stream is open (the hub holds it) before the write is made.
  await eventually(() => t.ctx.services.live.hub.count(team.id) === 1, 5000, 'the page subscribed');
  await page.evaluate(() => {
    (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
  });

  const res = await api(t)(team.keys.admin, 'PUT', `/team/legislation/${record}/stance`, { stance: 'opposes' });
  assert.equal(res.statusCode, 200, res.body);
  try {
    await page.waitForSelector(`tr[data-record="${record}"] td.stance[data-stance="opposes"]`);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded), true);
  } finally {
    await page.context().close();
  }
});

test("an admin's stance form works in place, and reaches another member's open page", async () => {
  const record = seeded.rollCalls[0]!.recordNumber;
  const watcher = await openLegislation(team.sessions.member);
  const admin = await openLegislation(team.sessions.admin);
  await eventually(() => t.ctx.services.live.hub.count(team.id) === 2, 5000, 'both pages subscribed');
  await admin.evaluate(() => {
    (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  try {
    await admin.click(`tr[data-record="${record}"] button[value="supports"]`);
    await admin.waitForSelector(`tr[data-record="${record}"] td.stance[data-stance="supports"]`);
    assert.equal(await admin.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded), true);
    await watcher.waitForSelector(`tr[data-record="${record}"] td.stance[data-stance="supports"]`);
    const stance = await api(t)(team.keys.owner, 'GET', `/team/legislation/${record}/stance`);
    assert.equal(stance.json().history[0].source, 'dashboard');
  } finally {
    await watcher.context().close();
    await admin.context().close();
  }
});
