// sitemap.xml (sitemaps.org protocol 0.9) from the records, and robots.txt. /sitemap.xml is an
// index of one sitemap per kind of page; each is walked from the same list operations as the API
// (as the visitor), newest first, up to the protocol's 50,000 URLs per file, with `lastmod` from
// the record's own `updatedAt`. Kept per URL until the record changes, like every open answer.
import type { FastifyInstance } from 'fastify';
import { create } from 'xmlbuilder2';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { contentTypes, performAsVisitor, sendKept, sendOpen } from '../pages/public-answer.ts';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** sitemaps.org: at most 50,000 URLs in one sitemap file. */
export const MAX_URLS = 50_000;
const PAGE = 200;

interface Url {
  loc: string;
  lastmod?: string;
}

type Lister = (ctx: AppContext, cursor: string | undefined) => Promise<{ urls: Url[]; next: string | null }>;

const enc = encodeURIComponent;

type RecordList = 'matters.list' | 'people.public.list' | 'meetings.list' | 'bodies.list';

/** One kind of record page: its list operation walked by cursor, each item's path, lastmod its `updatedAt`. */
function lister<Item extends { updatedAt: string }>(id: RecordList, input: Record<string, string>, path: (item: Item) => string): Lister {
  return async (ctx, cursor) => {
    const r = (await performAsVisitor(ctx, id, { ...input, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) } as never)) as {
      data: Item[];
      meta: { nextCursor: string | null };
    };
    return { urls: r.data.map((item) => ({ loc: path(item), lastmod: item.updatedAt })), next: r.meta.nextCursor };
  };
}

const listers: Record<string, Lister> = {
  matters: lister<{ recordNumber: string; updatedAt: string }>('matters.list', { sort: '-introduced' }, (m) => `/matters/${enc(m.recordNumber)}`),
  people: lister<{ id: string; updatedAt: string }>('people.public.list', {}, (p) => `/people/${enc(p.id)}`),
  meetings: lister<{ id: string; updatedAt: string }>('meetings.list', { sort: '-date' }, (g) => `/meetings/${enc(g.id)}`),
  bodies: lister<{ id: string; updatedAt: string }>('bodies.list', {}, (b) => `/bodies/${enc(b.id)}`),
};

/** Pages that are not records: the home page, the wards, the docs, the agent guide. */
function sitePages(): Url[] {
  const wards = Array.from({ length: 50 }, (_, i) => ({ loc: `/wards/${i + 1}` }));
  return [{ loc: '/' }, { loc: '/wards' }, ...wards, { loc: '/docs' }, { loc: '/llms.txt' }, { loc: '/auth.md' }, { loc: '/bulk' }];
}

export const sitemapKinds = ['pages', ...Object.keys(listers)];

async function urlsOf(ctx: AppContext, kind: string): Promise<Url[]> {
  if (kind === 'pages') return sitePages();
  const list = listers[kind];
  if (!list) throw new AppError('not_found', `No sitemap ${kind}: there are ${sitemapKinds.join(', ')}.`);
  const urls: Url[] = [];
  let cursor: string | undefined;
  do {
    const got = await list(ctx, cursor);
    urls.push(...got.urls);
    cursor = got.next ?? undefined;
  } while (cursor !== undefined && urls.length < MAX_URLS);
  return urls.slice(0, MAX_URLS);
}

function urlset(urls: Url[], baseUrl: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const root = doc.ele(SITEMAP_NS, 'urlset');
  for (const u of urls) {
    const el = root.ele('url');
    el.ele('loc').txt(`${baseUrl}${u.loc}`);
    if (u.lastmod) el.ele('lastmod').txt(u.lastmod);
  }
  return doc.end({ prettyPrint: true });
}

function sitemapIndex(baseUrl: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(SITEMAP_NS, 'sitemapindex');
  for (const kind of sitemapKinds) root.ele('sitemap').ele('loc').txt(`${baseUrl}/sitemaps/${kind}.xml`);
  return doc.end({ prettyPrint: true });
}

export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    // Private or endless: accounts, dashboards, credentials, API answers (they need a key), and
    // search results (any words make a page).
    ...['/account', '/dashboard/', '/signin', '/signout', '/dev/', '/oauth/', '/agent/', '/api/', '/mcp', '/a2a', '/search', '/feeds/search.atom'].map(
      (p) => `Disallow: ${p}`,
    ),
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapRoutes(ctx: AppContext) {
  const base = ctx.config.baseUrl;
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/robots.txt', async (_request, reply) => sendOpen(reply, 'text/plain; charset=utf-8', robotsTxt(base)));
    app.get('/sitemap.xml', async (_request, reply) => sendOpen(reply, contentTypes.xml, sitemapIndex(base)));
    app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
      const kind = /^([a-z]+)\.xml$/.exec(request.params.file)?.[1];
      if (!kind || !sitemapKinds.includes(kind))
        throw new AppError('not_found', `No sitemap ${request.params.file}: there are ${sitemapKinds.map((k) => `${k}.xml`).join(', ')}.`);
      return sendKept(ctx, request, reply, 'xml', async () => urlset(await urlsOf(ctx, kind), base));
    });
  };
}
