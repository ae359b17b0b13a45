// The public pages in a real browser (Debian's chromium through playwright-core) with an
// accessibility audit by axe-core at zero serious or critical violations, the skip link first in
// keyboard order, and a screenshot of each page kept in test-artifacts/pages/ (CI keeps it).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import axe from 'axe-core';
import { type Browser, chromium } from 'playwright-core';
import { type Site, startSite } from './helpers.ts';

const artifacts = new URL('../../../test-artifacts/pages/', import.meta.url);
let site: Site;
let browser: Browser;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  site = await startSite();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
  await site?.t.close();
});

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

test('the main pages pass axe-core with no serious or critical violation, keyboard first stop is the skip link', async () => {
  const r = site.records;
  const pages: [string, string][] = [
    ['home', '/'],
    ['search', '/search?q=parking'],
    ['matters', '/matters'],
    ['matter', `/matters/${r.matter}`],
    ['roll-call', `/roll-calls/${r.rollCall}`],
    ['meetings', '/meetings'],
    ['meeting', `/meetings/${r.meeting}`],
    ['people', '/people'],
    ['person', `/people/${r.person}`],
    ['body', `/bodies/${r.body}`],
    ['money', '/money'],
    ['committee', `/money/committees/${r.committee}`],
    ['lobbying', '/lobbying'],
    ['lobbyist', `/lobbying/lobbyists/${r.lobbyist}`],
    ['not-found', '/matters/O1999-0000000'],
  ];
  // The pages' own CSP forbids every script; the audit's script is let in by the browser itself.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  for (const [name, path] of pages) {
    const res = await page.goto(`${site.base}${path}`);
    assert.equal(res?.status(), name === 'not-found' ? 404 : 200, path);
    await page.screenshot({ path: new URL(`${name}.png`, artifacts).pathname, fullPage: true });
    await page.addScriptTag({ content: axe.source });
    const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResult;
    assert.ok(Array.isArray(result.violations), 'axe ran');
    if (result.violations.length) console.log(path, result.violations.map((v) => `${v.id}:${v.impact}`).join(' '));
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
      [],
      `${path} has accessibility violations`,
    );
    if (name === 'not-found') continue;
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Skip to content', `${path}: the skip link comes first`);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('location.hash'), '#main');
  }
  await context.close();
});

test('pages read without JavaScript: a search submitted from the form gives results', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.base}/`);
  await page.getByLabel('Search legislation, people, meetings and more').fill('parking');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/\/search\?q=parking/);
  assert.ok((await page.locator('table tbody tr').count()) > 0);
  await page.screenshot({ path: new URL('search-no-js.png', artifacts).pathname, fullPage: true });
  await context.close();
});

/** In the page: its width, and over how many lines each table cell holding a date alone is laid out. */
const phoneProbe = `(() => {
  const lines = [...document.querySelectorAll('td')]
    .filter((td) => /^\\d{4}-\\d{2}-\\d{2}$/.test(td.textContent ?? ''))
    .map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return { text: td.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
    });
  return { pageWidth: document.documentElement.scrollWidth, lines };
})()`;

test('on a phone (390 px) a page keeps to the screen and a date in a table stays on one line', async () => {
  const r = site.records;
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  let dates = 0;
  for (const path of ['/', `/people/${r.person}`, `/bodies/${r.body}`, '/matters']) {
    await page.goto(`${site.base}${path}`);
    const seen = (await page.evaluate(phoneProbe)) as { pageWidth: number; lines: { text: string; lines: number }[] };
    assert.ok(seen.pageWidth <= 390, `${path} is ${seen.pageWidth} px wide on a 390 px screen`);
    for (const cell of seen.lines) assert.equal(cell.lines, 1, `${path}: the date ${cell.text} is broken over ${cell.lines} lines`);
    dates += seen.lines.length;
  }
  assert.ok(dates > 0, 'the pages show dates in their tables');
  await page.screenshot({ path: new URL('phone-matters.png', artifacts).pathname, fullPage: true });
  await page.close();
});

/** In the page: over how many lines each table cell holding a record number alone is laid out. */
const recordProbe = `[...document.querySelectorAll('td')]
  .filter((td) => /^[A-Za-z]{1,4}\\d{4}-\\d+$/.test(td.textContent ?? ''))
  .map((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return { text: td.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
  })`;

test('on a wide screen a record number in a table stays on one line', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.base}/matters`);
  const cells = (await page.evaluate(recordProbe)) as { text: string; lines: number }[];
  assert.ok(cells.length > 0, 'the legislation list shows record numbers');
  for (const cell of cells) assert.equal(cell.lines, 1, `${cell.text} is broken over ${cell.lines} lines`);
  await page.close();
});
