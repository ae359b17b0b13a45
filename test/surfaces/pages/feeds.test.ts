// The Atom feeds over HTTP on the bundled sample, read with an XML parser (fast-xml-parser):
// well-formed Atom 1.0 (RFC 4287 §4.1.1 required elements), entries equal to the records the API
// serves (same ids, titles, updated), stable entry ids, public caching with an ETag, and 404/400
// for unknown records and bad parameters.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { readerKey } from '../../helpers/service.ts';
import { type SampleService, startSampleService } from './sample-service.ts';

let s: SampleService;
let key: string;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'link', 'category'].includes(name) });

before(async () => {
  s = await startSampleService();
  key = await readerKey(s.ctx);
});
after(async () => {
  await s?.close();
});

const api = async (path: string): Promise<any> => (await fetch(`${s.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })).json();

interface Entry {
  id: string;
  title: { '#text': string };
  updated: string;
  published?: string;
  link: { '@href': string; '@rel': string }[];
  summary: { '#text': string };
}

/** Fetches a feed, checks it is Atom 1.0 as RFC 4287 §4.1.1–4.1.2 requires, and returns it. */
async function atom(path: string): Promise<{ feed: any; entries: Entry[]; res: Response }> {
  const res = await s.get(path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
  assert.match(res.headers.get('cache-control') ?? '', /^public/);
  assert.ok(res.headers.get('etag'));
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true, `${path} is not well-formed XML`);
  const feed = parser.parse(xml).feed;
  assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
  for (const required of ['id', 'title', 'updated', 'author']) assert.ok(feed[required] !== undefined, `${path}: feed has no ${required}`);
  assert.ok(feed.link.some((l: any) => l['@rel'] === 'self' && l['@href'] === `http://council.test${path}`));
  const entries: Entry[] = feed.entry ?? [];
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
  assert.match(feed.updated, rfc3339);
  for (const e of entries) {
    assert.match(e.id, /^tag:council\.test,2026:/);
    assert.match(e.updated, rfc3339);
    assert.ok(e.title['#text'].length > 0);
    assert.ok(e.link.some((l) => l['@rel'] === 'alternate' && l['@href'].startsWith('http://council.test/')));
    assert.ok(e.updated <= feed.updated);
  }
  assert.equal(new Set(entries.map((e) => e.id)).size, entries.length, `${path}: entry ids repeat`);
  return { feed, entries, res };
}

const sec = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;
/** A record's own date as an Atom date-time (midnight UTC of that day). */
const dayTime = (date: string) => `${date}T00:00:00Z`;

test('new legislation: the newest matters, each entry the matter as the API serves it, dated by the record, not by its loading', async () => {
  const { entries, res } = await atom('/feeds/matters.atom');
  const { data } = await api('/matters?sort=-introduced&limit=50');
  assert.equal(entries.length, 50);
  assert.deepEqual(
    entries.map((e) => [e.id, e.title['#text'], e.link[0]!['@href']]),
    data.map((m: any) => [`tag:council.test,2026:matters/${m.recordNumber}`, `${m.recordNumber}: ${m.title}`, `http://council.test/matters/${m.recordNumber}`]),
  );
  // published: the introduction date; updated: the latest action upstream (or the introduction, if later).
  assert.deepEqual(
    entries.map((e) => [e.published, e.updated]),
    data.map((m: any) => {
      const own = m.introductionDate ?? m.lastActionDate;
      const latest = [m.introductionDate, m.lastActionDate].filter(Boolean).sort().at(-1);
      return [dayTime(own), dayTime(latest)];
    }),
  );
  // Nothing is news of the day the sample was loaded.
  const loaded = (await api('/sources')).data.find((x: any) => x.source === 'sample');
  const loadDay = loaded.lastSuccessAt.slice(0, 10);
  assert.ok(
    entries.every((e) => e.updated.slice(0, 10) < loadDay),
    `an entry dated by the load (${loadDay})`,
  );
  const again = await s.get('/feeds/matters.atom', { 'if-none-match': res.headers.get('etag')! });
  assert.equal(again.status, 304);
  const second = await atom('/feeds/matters.atom');
  assert.deepEqual(
    second.entries.map((e) => e.id),
    entries.map((e) => e.id),
    'entry ids are stable',
  );
});

test('meetings: the latest meetings with their records’ ids, published and updated at the meeting', async () => {
  const { entries } = await atom('/feeds/meetings.atom');
  const { data } = await api('/meetings?sort=-date&limit=50');
  assert.ok(entries.length > 0);
  assert.deepEqual(
    entries.map((e) => [e.id, e.published, e.updated]),
    data.map((g: any) => [`tag:council.test,2026:meetings/${g.id}`, sec(g.startTime), sec(g.startTime)]),
  );
  assert.ok(entries[0]!.title['#text'].startsWith(data[0].bodyName));
});

test('an alderperson’s votes: every vote of the person, matching the votes list, dated by its roll call', async () => {
  const { data: people } = await api('/people?kind=alderperson&ward=42');
  const person = people[0];
  const { feed, entries } = await atom(`/feeds/people/${person.id}/votes.atom`);
  const { data: votes } = await api(`/votes?person=${person.id}&limit=50`);
  assert.ok(votes.length > 0, 'the sample has roll calls with this alderperson');
  assert.equal(feed.title, `Votes of ${person.name}`);
  assert.deepEqual(
    entries.map((e) => [e.id, e.published, e.updated, e.link[0]!['@href']]),
    votes.map((v: any) => [
      `tag:council.test,2026:roll-calls/${v.rollCallId}/votes/${person.id}`,
      dayTime(v.date),
      dayTime(v.date),
      `http://council.test/roll-calls/${encodeURIComponent(v.rollCallId)}`,
    ]),
  );
  assert.equal(feed.updated, dayTime(votes[0].date), 'the feed is as new as its newest roll call');
  for (const [i, v] of votes.entries()) assert.ok(entries[i]!.title['#text'].includes(v.value));
});

test('a committee’s actions: its actions on matters, newest first, dated by the action', async () => {
  const { data: bodies } = await api('/bodies?q=Zoning&limit=5');
  // Today's committee (the Legistar-era history also has an inactive "Committee on Zoning").
  const body = bodies.find((b: any) => b.name.includes('Zoning') && b.active);
  const { data: actions } = await api(`/bodies/${body.id}/actions?limit=50`);
  assert.ok(actions.length > 0, 'the sample has actions of the zoning committee');
  const { feed, entries } = await atom(`/feeds/bodies/${body.id}/actions.atom`);
  assert.equal(feed.title, `Actions of the ${body.name}`);
  assert.deepEqual(
    entries.map((e) => [e.id, e.published, e.updated]),
    actions.map((a: any) => [`tag:council.test,2026:bodies/${body.id}/actions/${a.id}`, dayTime(a.date), dayTime(a.date)]),
  );
  for (let i = 1; i < actions.length; i++) assert.ok((actions[i - 1].date ?? '') >= (actions[i].date ?? ''), 'newest first');
});

test('a search: the records the search finds, by relevance, dated by the record where it has a date', async () => {
  const { entries } = await atom('/feeds/search.atom?q=parking');
  const { data } = await api('/search?q=parking&limit=50');
  assert.ok(data.length > 0);
  assert.deepEqual(
    entries.map((e) => [e.id, e.title['#text'], e.updated]),
    data.map((r: any) => [
      `tag:council.test,2026:${r.path.slice(1)}`,
      r.title,
      r.date ? sec(r.date.length === 10 ? dayTime(r.date) : r.date) : sec(r.updatedAt),
    ]),
  );
  const typed = await atom('/feeds/search.atom?q=parking&type=matter');
  assert.ok(typed.entries.every((e) => e.id.startsWith('tag:council.test,2026:matters/')));
});

test('a re-ingest that changes nothing changes no feed', async () => {
  const paths = ['/feeds/matters.atom', '/feeds/meetings.atom', '/feeds/search.atom?q=parking'];
  const before = await Promise.all(paths.map(async (p) => (await s.get(p)).text()));
  const report = await s.ctx.services.ingest.run('sample', {});
  assert.equal(report.changed, 0);
  const after = await Promise.all(paths.map(async (p) => (await s.get(p)).text()));
  assert.deepEqual(after, before);
});

test('unknown records are 404 and bad parameters 400, as pages', async () => {
  for (const [path, status] of [
    ['/feeds/people/no-such-person/votes.atom', 404],
    ['/feeds/bodies/no-such-body/actions.atom', 404],
    ['/feeds/search.atom', 400],
    ['/feeds/search.atom?q=', 400],
    ['/feeds/search.atom?q=parking&type=planet', 400],
    ['/feeds/matters.atom?page=2', 400],
  ] as const) {
    const res = await s.get(path);
    assert.equal(res.status, status, path);
    assert.notEqual(res.headers.get('cache-control'), 'public, max-age=300', path);
  }
});

test('GET /api/v1/bodies/{id}/actions pages through a body’s actions by cursor, filters by date, and refuses unknown bodies', async () => {
  const { data: bodies } = await api('/bodies?q=Zoning&limit=5');
  // Today's committee (the Legistar-era history also has an inactive "Committee on Zoning").
  const body = bodies.find((b: any) => b.name.includes('Zoning') && b.active);
  const whole = await api(`/bodies/${body.id}/actions?limit=200`);
  assert.ok(whole.data.length > 3);
  const paged: any[] = [];
  let cursor: string | null = null;
  do {
    const got: any = await api(`/bodies/${body.id}/actions?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    paged.push(...got.data);
    cursor = got.meta.nextCursor;
  } while (cursor);
  assert.deepEqual(paged, whole.data);
  const day = whole.data.find((a: any) => a.date !== null).date;
  const sameDay = await api(`/bodies/${body.id}/actions?from=${day}&to=${day}`);
  assert.ok(sameDay.data.length > 0 && sameDay.data.every((a: any) => a.date === day));
  for (const a of whole.data) assert.ok(a.matter.recordNumber && a.matter.title && a.updatedAt);
  const missing = await fetch(`${s.url}/api/v1/bodies/no-such-body/actions`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(missing.status, 404);
  const backwards = await fetch(`${s.url}/api/v1/bodies/${body.id}/actions?from=2026-02-01&to=2026-01-01`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(backwards.status, 400);
});
