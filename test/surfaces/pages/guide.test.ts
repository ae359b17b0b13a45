// The agent guide and the files for readers and crawlers over HTTP on the bundled sample:
// /llms.txt and /auth.md (every link resolves on the running service; the scope table is the
// scope vocabulary with the operations that need each scope), /docs (the viewer served from this
// service renders both descriptions in a real browser), robots.txt and the sitemaps (the records,
// with lastmod from each record).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { scopeCatalogue } from '../../../src/kernel/access.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { readerKey } from '../../helpers/service.ts';
import { type SampleService, startSampleService } from './sample-service.ts';

let s: SampleService;
let key: string;
const BASE = 'http://council.test';

before(async () => {
  s = await startSampleService();
  key = await readerKey(s.ctx);
});
after(async () => {
  await s?.close();
});

const linksOf = (markdown: string) => [...markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);

async function checkLinks(doc: string, markdown: string): Promise<void> {
  const links = linksOf(markdown);
  assert.ok(links.length >= 5, `${doc} has links`);
  for (const link of new Set(links)) {
    assert.ok(link.startsWith(`${BASE}/`), `${doc}: ${link} is an absolute link to this service`);
    const path = link.slice(BASE.length);
    const res = await s.get(path);
    await res.arrayBuffer();
    // Resolves: the route exists (a surface that needs a credential answers 401, never 404).
    assert.ok(res.status < 400 || res.status === 401, `${doc}: ${path} answered ${res.status}`);
  }
}

test('/llms.txt follows the llms.txt convention and names every surface, with links that resolve', async () => {
  const res = await s.get('/llms.txt');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.match(res.headers.get('cache-control') ?? '', /^public/);
  const text = await res.text();
  assert.match(text, /^# Council Tracker\n\n> \S/);
  for (const section of ['## Getting a credential', '## Surfaces', '## Limits', '## Open pages, Markdown and feeds (no credential)'])
    assert.ok(text.includes(`\n${section}\n`), section);
  for (const surface of [
    '/api/v1',
    '/api/v2',
    '/api/graphql',
    '/mcp',
    '/a2a',
    '/agent/auth',
    '/agent/auth/claim',
    '/auth.md',
    '/api/openapi.json',
    '/api/v2/openapi.json',
    '/feeds/matters.atom',
  ])
    assert.ok(text.includes(`${BASE}${surface}`), surface);
  assert.match(text, /1,000 requests a day \(reset at midnight UTC\), 60 a minute, 50 AI answers a day/);
  assert.match(text, /5,000 requests a day \(reset at midnight UTC\), 120 a minute, 200 AI answers a day/);
  await checkLinks('/llms.txt', text);
});

test('/auth.md gives the registration requests, OAuth discovery from the 401 the service sends, and every scope', async () => {
  const res = await s.get('/auth.md');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const text = await res.text();
  assert.ok(text.includes(`POST ${BASE}/agent/auth\nContent-Type: application/json`));
  assert.ok(text.includes(`POST ${BASE}/agent/auth/claim\nContent-Type: application/json`));
  for (const code of ['authorization_pending', 'slow_down', 'access_denied', 'expired_token']) assert.ok(text.includes(code), code);
  // The challenge shown is the one an unauthenticated call really gets.
  const challenge = (await s.get('/api/v1/matters')).headers.get('www-authenticate');
  assert.ok(challenge && text.includes(`WWW-Authenticate: ${challenge}`), `the 401 challenge shown is ${challenge}`);
  const rows = text.split('\n').filter((l) => /^\| `[a-z.]+` \|/.test(l));
  assert.deepEqual(
    rows.map((r) => /^\| `([a-z.]+)`/.exec(r)![1]),
    Object.keys(scopeCatalogue),
  );
  for (const op of s.ctx.performer.all()) {
    for (const scope of op.access.scopes) assert.ok(rows.find((r) => r.startsWith(`| \`${scope}\``))!.includes(`\`${op.id}\``), `${op.id} under ${scope}`);
  }
  await checkLinks('/auth.md', text);
});

test('/docs renders both OpenAPI descriptions with the viewer served from this service, and shows curl examples and keys', async () => {
  const res = await s.get('/docs');
  assert.equal(res.status, 200);
  const page = await res.text();
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  assert.ok(
    page.includes(
      '<pre><code>curl -H &quot;Authorization: Bearer $COUNCIL_KEY&quot; &quot;http://council.test/api/v1/wards?lat=41.88365&amp;lon=-87.63197&quot;</code></pre>',
    ),
  );
  assert.match(page, /<a href="\/auth\.md">/);
  for (const src of [...page.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]!)) {
    const asset = await s.get(src);
    assert.equal(asset.status, 200, src);
    assert.match(asset.headers.get('content-type') ?? '', src.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    await asset.arrayBuffer();
  }
  assert.equal((await s.get('/docs/assets/secrets.js')).status, 404);
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('requestfailed', (r) => errors.push(`${r.url()} failed`));
    await tab.goto(`${s.url}/docs`);
    await tab.waitForSelector('.opblock-summary-path[data-path="/wards"]');
    assert.ok(await tab.locator('.opblock-summary-path[data-path="/matters/{record}"]').count());
    await tab.goto(`${s.url}/docs?version=v2`);
    await tab.waitForSelector('.opblock-summary-path[data-path="/team/notes"]');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['url', 'sitemap'].includes(name) });

async function xml(path: string): Promise<any> {
  const res = await s.get(path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
  const body = await res.text();
  assert.equal(XMLValidator.validate(body), true);
  return parser.parse(body);
}

/** Every record of a list route, walked through its cursors. */
async function all(path: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${s.url}/api/v1${path}${path.includes('?') ? '&' : '?'}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as any;
    out.push(...body.data);
    cursor = body.meta.nextCursor;
  } while (cursor);
  return out;
}

test('robots.txt points at the sitemap; the sitemaps list every record with its lastmod', async () => {
  const robots = await (await s.get('/robots.txt')).text();
  assert.match(robots, /^User-agent: \*$/m);
  assert.match(robots, /^Disallow: \/account$/m);
  assert.match(robots, new RegExp(`^Sitemap: ${BASE}/sitemap.xml$`, 'm'));
  const index = await xml('/sitemap.xml');
  const files = index.sitemapindex.sitemap.map((x: any) => x.loc.slice(BASE.length));
  assert.deepEqual(files, ['/sitemaps/pages.xml', '/sitemaps/matters.xml', '/sitemaps/people.xml', '/sitemaps/meetings.xml', '/sitemaps/bodies.xml']);
  const urls = async (file: string) => (await xml(file)).urlset.url as { loc: string; lastmod?: string }[];
  const pages = await urls('/sitemaps/pages.xml');
  assert.equal(pages.filter((u) => /\/wards\/\d+$/.test(u.loc)).length, 50);
  for (const u of pages.filter((p) => /\/(wards(\/\d+)?|docs|llms\.txt|auth\.md)$/.test(p.loc)))
    assert.equal((await s.get(u.loc.slice(BASE.length))).status, 200, u.loc);
  const matters = await all('/matters?sort=-introduced');
  assert.deepEqual(
    (await urls('/sitemaps/matters.xml')).map((u) => [u.loc, u.lastmod]),
    matters.map((m) => [`${BASE}/matters/${m.recordNumber}`, m.updatedAt]),
  );
  const people = await all('/people');
  assert.deepEqual(
    (await urls('/sitemaps/people.xml')).map((u) => u.loc),
    people.map((p) => `${BASE}/people/${encodeURIComponent(p.id)}`),
  );
  assert.equal((await urls('/sitemaps/meetings.xml')).length, (await all('/meetings')).length);
  assert.equal((await urls('/sitemaps/bodies.xml')).length, (await all('/bodies')).length);
  assert.equal((await s.get('/sitemaps/secrets.xml')).status, 404);
});
