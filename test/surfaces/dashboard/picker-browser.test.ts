// The record picker in a real browser (Debian's chromium through playwright-core) on the bundled
// sample: typing a name lists matches, the keyboard chooses one, and the form adds that person to
// a bill's target list; without JavaScript the /pick page chooses instead. Screenshots of the
// analytics page, a chart form with its preview and the scorecard go to SHOTS_DIR (default
// /tmp/shots/dash) for a person to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { freePort } from '../../helpers/free-port.ts';
import { api, expectOk } from '../v2/team-helpers.ts';
import { type DashboardTeam, dashboardTeam } from './helpers.ts';

const shots = process.env.SHOTS_DIR ?? '/tmp/shots/dash';
let t: TestContext;
let team: DashboardTeam;
let browser: Browser;
let base: string;
let record: string;
let alder: { id: string; name: string };

before(async () => {
  mkdirSync(shots, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestContext({ env: { BASE_URL: base }, sample: true });
  team = await dashboardTeam(t);
  const split = await t.ctx.db
    .selectFrom('roll_calls as r')
    .innerJoin('matters as m', 'm.id', 'r.matter_id')
    .select('m.record_number')
    .where('r.nay', '>', 3)
    .orderBy('r.date', 'desc')
    .limit(5)
    .execute();
  for (const [i, r] of split.entries()) {
    expectOk(await api(t)(team.keys.owner, 'PUT', `/team/legislation/${r.record_number}/stance`, { stance: i === 1 ? 'opposes' : 'supports' }));
  }
  record = split[0]!.record_number;
  alder = await t.ctx.db.selectFrom('people').select(['id', 'name']).where('kind', '=', 'alderperson').where('ward', '=', 25).executeTakeFirstOrThrow();
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

async function open(path: string, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1200, height: 900 } });
  await context.addCookies([{ name: 'ct_session', value: team.sessions.owner, url: base }]);
  const page = await context.newPage();
  const res = await page.goto(`${base}${path}`);
  assert.equal(res?.status(), 200, path);
  return page;
}

test('type a name in the picker, choose with the keyboard, submit: the person is on the target list', async () => {
  const page = await open(`/dashboard/${team.id}/targets`);
  const section = page.locator(`#targets-${record}`);
  const box = section.getByRole('combobox');
  await box.pressSequentially(alder.name.split(' ').at(-1)!, { delay: 20 });
  const option = section.getByRole('option', { name: new RegExp(alder.name) });
  await option.waitFor();
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  // Down until the alderperson is the active option (aria-activedescendant), then Enter.
  for (let i = 0; i < 8 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await box.press('ArrowDown');
  assert.equal(await box.getAttribute('aria-activedescendant'), await option.getAttribute('id'));
  await box.press('Enter');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.equal(await section.locator('input[name="personId"]').inputValue(), alder.id);
  await section.getByRole('button', { name: 'Add to the target list' }).click();
  await page.locator(`#targets-${record} tr[data-person="${alder.id}"]`).waitFor();
  const targets = expectOk(await api(t)(team.keys.owner, 'GET', `/team/legislation/${record}/targets`));
  assert.deepEqual(targets.onTargetList, [alder.id]);
  await page.screenshot({ path: `${shots}/targets.png`, fullPage: true });
  await page.context().close();
});

test('without JavaScript: the search page chooses the person and the form sends the choice', async () => {
  const page = await open(`/dashboard/${team.id}/follows`, false);
  await page
    .locator('#pick-follow-person')
    .locator('..')
    .getByRole('link', { name: /Search for a person/ })
    .click();
  await page.getByLabel('Record number, title or name').fill(alder.name);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.screenshot({ path: `${shots}/pick-no-js.png`, fullPage: true });
  await page
    .getByRole('link', { name: `Choose ${alder.name}` })
    .first()
    .click();
  assert.match(page.url(), /\/follows\?type=person/);
  assert.equal(await page.locator('#pick-follow-person').inputValue(), alder.name);
  await page
    .locator('form.follow-form', { has: page.locator('#pick-follow-person') })
    .getByRole('button', { name: 'Follow' })
    .click();
  await page.locator('td', { hasText: alder.id }).first().waitFor();
  await page.context().close();
});

test('screenshots: the analytics page, a chart form with its preview, the scorecard', async () => {
  const analytics = await open(`/dashboard/${team.id}/analytics`);
  assert.equal(await analytics.locator('.widget').count(), 3);
  await analytics.screenshot({ path: `${shots}/analytics.png`, fullPage: true });
  const dash = expectOk(await api(t)(team.keys.owner, 'GET', '/team/dashboards')).data[0];
  const form = analytics;
  await form.goto(`${base}/dashboard/${team.id}/analytics/${dash.id}/add/voting_record`);
  await form.screenshot({ path: `${shots}/chart-form.png`, fullPage: true });
  const box = form.getByRole('combobox');
  await box.pressSequentially(alder.name.split(' ').at(-1)!, { delay: 20 });
  await form.getByRole('option', { name: new RegExp(alder.name) }).waitFor();
  await box.press('ArrowDown');
  await box.press('Enter');
  await form.getByRole('button', { name: 'Preview' }).click();
  await form.getByRole('img', { name: new RegExp(`Voting record of ${alder.name}`) }).waitFor();
  await form.screenshot({ path: `${shots}/chart-preview.png`, fullPage: true });
  await form.getByRole('button', { name: /Add this chart/ }).click();
  await form.waitForURL(new RegExp(`/analytics/${dash.id}$`));
  assert.equal(await form.locator('.widget').count(), 4);
  await form.goto(`${base}/dashboard/${team.id}/scorecard`);
  assert.ok((await form.locator('table.scorecard tbody tr').count()) >= 45);
  await form.screenshot({ path: `${shots}/scorecard.png`, fullPage: true });
  await form.context().close();
});
