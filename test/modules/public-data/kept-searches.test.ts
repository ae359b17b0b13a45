// Search pages kept in memory (modules/public-data/kept-searches.ts): every spelling of one query
// shares one kept page whoever asks, so the database answers it once; another filter or order is
// another page; and a change to the matters (at this instance or, on PostgreSQL, another one)
// drops it, so the next search sees the change.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { normalisedQuery } from '../../../src/modules/public-data/kept-searches.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData } from '../../helpers/seed.ts';
import { recordingStatements } from '../../helpers/statements.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let a: TestContext;
/** A second instance on the same PostgreSQL database (only there can two processes share one). */
let b: TestContext | null = null;

before(async () => {
  a = await startTestContext();
  await seedPublicData(a.ctx.db);
  await sql`
    insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    select 'kept-' || i, 'QZ2030-000000' || i, 'Ordinance', 'Quagga crossing budget number ' || i, date '2030-01-01' + i, 'test', 'kept-' || i
      from generate_series(1, 3) as i`.execute(a.ctx.db);
  if (onPostgres) b = await startTestContext({ databaseUrl: a.config.databaseUrl! });
});
after(async () => {
  await b?.close();
  await a.close();
});

async function newKey(t: TestContext): Promise<string> {
  const account = await t.ctx.services.accounts.create({ email: `k-${crypto.randomUUID()}@example.org` });
  return (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'kept searches', scopes: ['public.read'] })).key;
}

async function get(t: TestContext, url: string, key: string): Promise<any> {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** The search statements (text search or an exact record number) sent while `run` runs. */
async function searchStatements(t: TestContext, run: () => Promise<unknown>): Promise<number> {
  return recordingStatements(t, async (statements) => {
    await run();
    // The statements that read matters for a search (not the parse of a query's text that plans
    // its walk, search-postings.ts, done once per text): a text query parsed in the statement, or
    // taken parsed (`::tsquery`) by a walk of the postings.
    return statements.filter((s) => (s.includes('tsquery') && s.includes('matters')) || s.includes('lower(')).length;
  });
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting until ${what}`);
}

test('the normalised query: letter case of ASCII words and spaces do not count, operators and other letters do', () => {
  assert.equal(normalisedQuery('Budget'), normalisedQuery('budget '));
  assert.equal(normalisedQuery('BUDGET'), normalisedQuery('  budget'));
  assert.equal(normalisedQuery('"City  Council" or Zoning'), normalisedQuery('"city council" OR zoning'));
  assert.notEqual(normalisedQuery('budget -tax'), normalisedQuery('budget tax'));
  assert.notEqual(normalisedQuery('budget or tax'), normalisedQuery('budget tax'));
  assert.notEqual(normalisedQuery('Émile'), normalisedQuery('émile'));
  // A record number is found by its own index, without letter case; its text is another query.
  assert.equal(normalisedQuery('QZ2030-0000001'), normalisedQuery('qz2030-0000001 '));
  assert.notEqual(normalisedQuery('QZ2030-0000001'), normalisedQuery('"QZ2030-0000001"'));
});

test('every spelling of one query shares one kept page, whoever asks: the database answers it once', async () => {
  const [one, two] = [await newKey(a), await newKey(a)];
  await until(() => a.ctx.caches.publicData.usable(), 'the instance hears changes');
  const pages: any[] = [];
  const ran = await searchStatements(a, async () => {
    for (const [q, key] of [
      ['Quagga', one],
      ['quagga%20', two],
      ['QUAGGA', one],
    ] as const) {
      pages.push(await get(a, `/api/v1/matters?q=${q}`, key));
    }
  });
  assert.equal(ran, 1, 'one statement for three spellings');
  // Ranked alike, by id.
  assert.deepEqual(
    pages[0].data.map((m: any) => m.recordNumber),
    ['QZ2030-0000001', 'QZ2030-0000002', 'QZ2030-0000003'],
  );
  for (const page of pages) assert.deepEqual(page, pages[0]);
  // Another order, filter or page size changes the answer: each is read, then shared too.
  const others = await searchStatements(a, async () => {
    await get(a, '/api/v1/matters?q=quagga&sort=record', one);
    await get(a, '/api/v1/matters?q=QUAGGA&sort=record', two);
    await get(a, '/api/v1/matters?q=quagga&limit=2', one);
    await get(a, '/api/v1/matters?q=quagga&status=Introduced', one);
  });
  assert.equal(others, 3);
  // The search across kinds (the /search page's operation), and an exact record number, alike.
  const across = await searchStatements(a, async () => {
    const first = await get(a, '/api/v1/search?q=Quagga%20Crossing', one);
    assert.deepEqual(await get(a, '/api/v1/search?q=quagga+crossing', two), first);
    assert.equal(first.data.length, 3);
    const record = await get(a, '/api/v1/matters?q=QZ2030-0000002', one);
    assert.deepEqual(await get(a, '/api/v1/matters?q=qz2030-0000002', two), record);
    assert.equal(record.data[0].recordNumber, 'QZ2030-0000002');
  });
  assert.equal(across, 2);
});

test('a change to the matters drops the kept pages at every instance: the next search sees it', async () => {
  const instances = b ? [a, b] : [a];
  const keys = await Promise.all(instances.map(newKey));
  for (const t of instances) await until(() => t.ctx.caches.publicData.usable(), 'the instance hears changes');
  for (const [i, t] of instances.entries()) {
    assert.equal((await get(t, '/api/v1/matters?q=Quagga%20%20BUDGET', keys[i]!)).data.length, 3);
    assert.equal(await searchStatements(t, () => get(t, '/api/v1/matters?q=quagga+budget', keys[i]!)), 0, 'kept');
  }
  const generations = instances.map((t) => t.ctx.caches.publicData.generation());
  await sql`update matters set title = 'Quagga crossing budget, amended' where record_number = 'QZ2030-0000001'`.execute(a.ctx.db);
  await sql`insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    values ('kept-4', 'QZ2030-0000004', 'Ordinance', 'Quagga budget number 4', date '2030-02-01', 'test', 'kept-4')`.execute(a.ctx.db);
  for (const [i, t] of instances.entries()) {
    await until(() => t.ctx.caches.publicData.generation() !== generations[i], 'the change is heard');
    const page = await get(t, '/api/v1/matters?q=quagga+budget', keys[i]!);
    assert.deepEqual(page.data.map((m: any) => m.recordNumber).sort(), ['QZ2030-0000001', 'QZ2030-0000002', 'QZ2030-0000003', 'QZ2030-0000004']);
    assert.equal(page.data.find((m: any) => m.recordNumber === 'QZ2030-0000001').title, 'Quagga crossing budget, amended');
  }
});
