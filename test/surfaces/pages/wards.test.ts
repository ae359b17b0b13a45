// Wards over HTTP on the bundled sample: "which ward is this point in" on the API (known points,
// bad coordinates → 400, no credential → 401), the ward pages and their Markdown variants, the map
// (each ward a link to its alderperson, titles, a table), and the form on the page.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../helpers/chromium.ts';
import { readerKey } from '../../helpers/service.ts';
import { type SampleService, startSampleService } from './sample-service.ts';

/** Screenshots of the pages, kept as CI artefacts (SCREENSHOTS_DIR), else in the temporary directory. */
const SHOTS = process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'council-screenshots');

let s: SampleService;
let key: string;
let alders: { id: string; name: string; ward: number }[];

before(async () => {
  s = await startSampleService();
  key = await readerKey(s.ctx);
  const res = await fetch(`${s.url}/api/v1/people?kind=alderperson&current=true&limit=200`, { headers: { authorization: `Bearer ${key}` } });
  alders = ((await res.json()) as any).data;
});
after(async () => {
  await s?.close();
});

const api = async (query: string) => {
  const res = await fetch(`${s.url}/api/v1/wards${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
};

// Known places: City Hall (121 N LaSalle St) is in ward 42; Wrigley Field (1060 W Addison St) in
// ward 44; a point in Lake Michigan and one in Evanston are in none.
const known: [string, number, number, number | null][] = [
  ['City Hall', 41.88365, -87.63197, 42],
  ['Wrigley Field', 41.94838, -87.65564, 44],
  ['Lake Michigan', 41.9, -87.5, null],
  ['Evanston', 42.0451, -87.6877, null],
];

test('the API places known points in their wards, with the ward’s alderperson', async () => {
  assert.equal(alders.length, 50);
  for (const [name, lat, lon, ward] of known) {
    const { status, body } = await api(`?lat=${lat}&lon=${lon}`);
    assert.equal(status, 200, name);
    assert.equal(body.ward, ward, name);
    assert.equal(body.lat, lat);
    if (ward === null) assert.equal(body.alderperson, null);
    else assert.deepEqual([body.alderperson.id, body.alderperson.ward], [alders.find((a) => a.ward === ward)!.id, ward], name);
  }
});

test('bad coordinates are 400 and a missing credential 401', async () => {
  for (const q of ['?lat=abc&lon=-87.6', '?lat=91&lon=-87.6', '?lat=41.8&lon=-181', '?lat=41.8', '?lon=-87.6', '', '?lat=41.8&lon=-87.6&x=1', '?lat=&lon=']) {
    const { status, body } = await api(q);
    assert.equal(status, 400, q);
    assert.equal(body.code, 'invalid_request', q);
  }
  const res = await fetch(`${s.url}/api/v1/wards?lat=41.88&lon=-87.63`);
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
});

test('/wards draws the map: every ward a link to its alderperson with a title, and a table', async () => {
  const res = await s.get('/wards');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(res.headers.get('cache-control') ?? '', /^public/);
  assert.ok(res.headers.get('etag'));
  const page = await res.text();
  const links = [...page.matchAll(/<a href="([^"]+)" aria-label="([^"]+)"[^>]*><path d="M[^"]+"[^>]*><title>([^<]+)<\/title><\/path><\/a>/g)];
  assert.equal(links.length, 50);
  for (const a of alders) {
    const link = links.find((l) => l[2]!.startsWith(`Ward ${a.ward}:`));
    assert.ok(link, `ward ${a.ward} drawn`);
    assert.equal(link[1], `/people/${encodeURIComponent(a.id)}`);
    assert.equal(link[3], link[2]);
    assert.ok(link[2]!.includes(a.name.replace(/'/g, '&#39;')) || link[2]!.includes(a.name), `ward ${a.ward} names ${a.name}`);
  }
  assert.equal([...page.matchAll(/<tr><th scope="row"><a href="\/wards\/\d+">Ward \d+<\/a><\/th><td><a href="\/people\//g)].length, 50);
  assert.match(page, /<a class="skip" href="#main">/);
  assert.match(page, /<link rel="alternate" type="text\/markdown" href="\/wards.md"/);
  const again = await s.get('/wards', { 'if-none-match': res.headers.get('etag')! });
  assert.equal(again.status, 304);
});

test('/wards/42 and its Markdown variant name the ward’s alderperson; unknown wards are 404, bad ones 400', async () => {
  const alder = alders.find((a) => a.ward === 42)!;
  const res = await s.get('/wards/42');
  assert.equal(res.status, 200);
  const page = await res.text();
  assert.match(page, /<title>Ward 42 · Council Tracker<\/title>/);
  assert.ok(page.includes(`href="/people/${encodeURIComponent(alder.id)}" aria-label="Ward 42: Ald.`));
  assert.match(page, /aria-current="page"/);
  assert.ok(page.includes(`<link rel="alternate" type="application/atom+xml" href="/feeds/people/${encodeURIComponent(alder.id)}/votes.atom"`));
  const md = await s.get('/wards/42.md');
  assert.equal(md.status, 200);
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const text = await md.text();
  assert.ok(text.startsWith('# Ward 42\n'));
  assert.ok(text.includes(`(http://council.test/people/${encodeURIComponent(alder.id)})`));
  const all = await (await s.get('/wards.md')).text();
  assert.equal(all.match(/^\| \[\d+\]\(http:\/\/council\.test\/wards\/\d+\.md\) \| \[Ald\. /gm)?.length, 50);
  for (const [path, status] of [
    ['/wards/51', 404],
    ['/wards/0', 404],
    ['/wards/abc', 400],
    ['/wards/4x.md', 400],
  ] as const) {
    const r = await s.get(path);
    assert.equal(r.status, status, path);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
  }
});

test('the form on the ward page answers with the ward of the coordinates, and refuses bad ones with a 400 page', async () => {
  const page = await (await s.get('/wards/42')).text();
  assert.match(page, /<form method="get" action="\/wards">/);
  assert.match(page, /<label for="lat">/);
  const res = await s.get('/wards?lat=41.88365&lon=-87.63197');
  assert.equal(res.status, 200);
  assert.match(await res.text(), /is in <a href="\/wards\/42">ward 42<\/a>, represented by <a href="\/people\//);
  const none = await s.get('/wards?lat=41.9&lon=-87.5');
  assert.match(await none.text(), /is not in any Chicago ward/);
  for (const q of ['?lat=north&lon=-87.6', '?lat=95&lon=-87.6', '?lat=41.9', '?lat=1&lon=2&q=3']) {
    const bad = await s.get(`/wards${q}`);
    assert.equal(bad.status, 400, q);
    assert.match(await bad.text(), /class="error"/);
  }
});

test('in a browser the ward pages pass an axe-core audit with no serious or critical violations, and the map is usable by keyboard', async () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const browser = await launchChromium();
  try {
    // The audit script is injected: the pages' CSP (no script at all) is bypassed for it alone.
    const tab = await (await browser.newContext({ bypassCSP: true })).newPage();
    for (const path of ['/wards', '/wards/42', '/wards?lat=41.88365&lon=-87.63197']) {
      await tab.goto(`${s.url}${path}`);
      await tab.addScriptTag({ content: axeSource });
      const result = await tab.evaluate(async () => (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }));
      const bad = result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id}: ${v.nodes.length}`);
      assert.deepEqual(bad, [], path);
      mkdirSync(SHOTS, { recursive: true });
      await tab.screenshot({ path: `${SHOTS}/wards${path.replace(/[^a-z0-9]+/gi, '-')}.png`, fullPage: true });
    }
    // Keyboard: the skip link comes first, then the site links, then the wards in order.
    await tab.goto(`${s.url}/wards`);
    await tab.keyboard.press('Tab');
    assert.equal(await tab.evaluate(() => (globalThis as any).document.activeElement?.textContent), 'Skip to content');
    let label: string | null = null;
    for (let i = 0; i < 20 && !label?.startsWith('Ward 1:'); i++) {
      await tab.keyboard.press('Tab');
      label = await tab.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') ?? null);
    }
    assert.match(label ?? '', /^Ward 1: Ald\. /);
    await tab.keyboard.press('Enter');
    await tab.waitForURL(/\/people\//);
  } finally {
    await browser.close();
  }
});
