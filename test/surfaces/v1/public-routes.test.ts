import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { COMMITTEE_ID, LOBBYIST_ID } from '../../helpers/seed.ts';
import { until } from '../../helpers/service.ts';
import { recordingStatements } from '../../helpers/statements.ts';
import { createVotesUpdatedFloor } from '../../../src/modules/public-data/updated-floor.ts';
import { startV1, type V1 } from './helpers.ts';

let v: V1;
before(async () => {
  v = await startV1();
});
after(async () => {
  await v.t.close();
});

async function all(url: string, limit: number, from: string | null = null): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = from;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const r = await v.get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    out.push(...r.body.data);
    cursor = r.body.meta.nextCursor;
  } while (cursor);
  return out;
}

describe('matters', () => {
  test('detail by record number is case-insensitive and carries attachments and roll calls', async () => {
    const r = await v.get('/matters/so2026-0025407');
    assert.equal(r.status, 200);
    assert.equal(r.body.recordNumber, 'SO2026-0025407');
    assert.equal(r.body.type, 'Ordinance');
    assert.ok(r.body.attachments.length > 0);
    assert.equal(r.body.rollCalls.length, 1);
    assert.deepEqual(r.body.rollCalls[0].tallies, { yea: 46, nay: 3, absent: 0, notVoting: 1, present: 0, recused: 0, vacant: 0, risingVote: 0 });
  });

  test('an unknown record number is 404 not_found', async () => {
    const r = await v.get('/matters/O1999-0000000');
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'not_found');
  });

  test('filters by type (case-insensitive), status and introduction date range', async () => {
    const claims = await v.get('/matters?type=claim');
    assert.equal(claims.status, 200);
    const expected = v.seeded.matters.filter((m) => m.type === 'Claim').length;
    assert.ok(expected > 0);
    assert.equal(claims.body.data.length, expected);
    assert.ok(claims.body.data.every((m: any) => m.type === 'Claim'));
    const ranged = await v.get('/matters?introduced_from=2023-07-01&introduced_to=2023-07-31');
    const inJuly = v.seeded.matters.filter((m) => m.introductionDate && m.introductionDate >= '2023-07-01' && m.introductionDate <= '2023-07-31');
    assert.deepEqual(ranged.body.data.map((m: any) => m.recordNumber).sort(), inJuly.map((m) => m.recordNumber).sort());
    const passed = await v.get('/matters?status=passed');
    assert.ok(passed.body.data.length > 0);
    assert.ok(passed.body.data.every((m: any) => m.status === 'Passed'));
  });

  test('sorts newest introduced first with undated matters last, and by record number', async () => {
    const rows = await all('/matters', 7);
    assert.equal(rows.length, v.seeded.matters.length);
    const dates = rows.map((m) => m.introductionDate);
    const firstNull = dates.indexOf(null);
    assert.ok(firstNull > 0 && dates.slice(firstNull).every((d) => d === null));
    const dated = dates.slice(0, firstNull);
    assert.deepEqual(dated, [...dated].sort().reverse());
    const byRecord = (await all('/matters?sort=record', 5)).map((m) => m.recordNumber);
    assert.deepEqual(byRecord, [...byRecord].sort());
    assert.equal(new Set(byRecord).size, byRecord.length);
  });

  test('q finds by words in titles, ranks an exact record number first, and over-long q is 400', async () => {
    const zoning = await v.get('/matters?q=zoning reclassification');
    assert.equal(zoning.status, 200);
    assert.ok(zoning.body.data.length >= 3);
    assert.ok(zoning.body.data.every((m: any) => /zoning/i.test(m.title)));
    const exact = await v.get('/matters?q=Or2026-0028321');
    assert.equal(exact.body.data[0].recordNumber, 'Or2026-0028321');
    const long = await v.get(`/matters?q=${'a'.repeat(201)}`);
    assert.equal(long.status, 400);
    assert.equal(long.body.code, 'invalid_request');
    assert.match(long.body.detail, /q.*200 characters/);
  });

  test('cursors stay stable when rows are inserted between pages', async () => {
    const first = await v.get('/matters?sort=record&limit=4');
    const seen = first.body.data.map((m: any) => m.recordNumber);
    // A record that sorts before the cursor must not shift the next page.
    await v.t.ctx.db
      .insertInto('matters')
      .values({
        id: 'inserted-between-pages',
        record_number: 'A2000-0000001',
        type: 'Appointment',
        title: 'Inserted while paging',
        source: 'test',
        source_id: 'x',
      })
      .execute();
    try {
      const rest = await all('/matters?sort=record', 4, first.body.meta.nextCursor);
      const after = rest.map((m) => m.recordNumber);
      assert.ok(!after.includes('A2000-0000001'));
      assert.equal(seen.length + after.length, v.seeded.matters.length);
      assert.equal(new Set([...seen, ...after]).size, v.seeded.matters.length);
    } finally {
      await v.t.ctx.db.deleteFrom('matters').where('id', '=', 'inserted-between-pages').execute();
    }
  });

  test('updated_since keeps only records changed at or after the instant', async () => {
    const record = v.seeded.matters[0]!.recordNumber;
    await v.t.ctx.db
      .updateTable('matters')
      .set({ updated_at: new Date('2030-01-01T00:00:00Z') } as never)
      .where('record_number', '=', record)
      .execute();
    const r = await v.get('/matters?updated_since=2029-12-31T23:59:59Z');
    assert.deepEqual(
      r.body.data.map((m: any) => m.recordNumber),
      [record],
    );
    const none = await v.get('/roll-calls?updated_since=2029-12-31T23:59:59Z');
    assert.deepEqual(none.body.data, []);
  });
});

describe('roll calls and votes', () => {
  test('roll-call detail: tallies equal the sums of the per-person votes', async () => {
    for (const rc of v.seeded.rollCalls) {
      const r = await v.get(`/roll-calls/${rc.id}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.votes.length, 50);
      const count = (value: string) => r.body.votes.filter((x: any) => x.value === value).length;
      const t = r.body.tallies;
      assert.equal(t.yea, count('Yea'));
      assert.equal(t.nay, count('Nay'));
      assert.equal(t.notVoting, count('Not Voting'));
      assert.equal(t.absent, count('Absent'));
      assert.equal(r.body.matter.recordNumber, rc.recordNumber);
    }
    assert.equal((await v.get('/roll-calls/no-such-roll-call')).status, 404);
  });

  test('split=true keeps roll calls with both yeas and nays', async () => {
    const r = await v.get('/roll-calls?split=true');
    assert.equal(r.body.data.length, v.seeded.rollCalls.filter((c) => c.yea > 0 && c.nay > 0).length);
  });

  test('votes by person page newest first through every roll call', async () => {
    const person = v.seeded.alders.find((a) => a.ward === 25)!;
    const rows = await all(`/votes?person=${person.id}`, 3);
    assert.equal(rows.length, v.seeded.rollCalls.length);
    assert.ok(rows.every((x) => x.personId === person.id && x.ward === 25));
    const keys = rows.map((x) => `${x.date}|${x.rollCallId}`);
    assert.equal(new Set(keys).size, keys.length);
    const dates = rows.map((x) => x.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
  });

  test('a person’s votes with updated_since: one at or before the earliest update gives them all; a later one only the later votes, as the earliest moves', async () => {
    const person = v.seeded.alders.find((a) => a.ward === 25)!;
    const everything = await all(`/votes?person=${person.id}`, 50);
    const earliest = async () => (await sql<{ at: Date }>`select min(updated_at) as at from votes`.execute(v.t.ctx.db)).rows[0]!.at;
    const floor = new Date(await earliest());
    const since = (at: number) => `/votes?person=${person.id}&updated_since=${new Date(at).toISOString()}`;
    assert.deepEqual(await all(since(floor.getTime()), 50), everything);
    assert.deepEqual(await all(since(floor.getTime() - 86_400_000), 50), everything);
    // Later than every vote's update (the sample's votes were written together): none.
    const latest = (await sql<{ at: Date }>`select max(updated_at) as at from votes`.execute(v.t.ctx.db)).rows[0]!.at;
    assert.deepEqual(await all(since(new Date(latest).getTime() + 1), 50), []);
    // One vote of the person written long before the earliest, at a microsecond past a
    // millisecond: an updated_since one millisecond later leaves it out (once the change is heard
    // and the earliest read again, cut to the millisecond towards the past); one at its
    // millisecond keeps it.
    const moved = everything[0]!;
    const where = sql`roll_call_id = ${moved.rollCallId} and person_id = ${person.id}`;
    const was = (await sql<{ at: Date }>`select updated_at as at from votes where ${where}`.execute(v.t.ctx.db)).rows[0]!.at;
    await sql`update votes set updated_at = '2000-01-01T00:00:00.123600Z' where ${where}`.execute(v.t.ctx.db);
    try {
      const key = (x: any) => `${x.rollCallId}|${x.personId}`;
      const expected = everything.filter((x) => key(x) !== key(moved)).map(key);
      const asked = (at: string) => all(`/votes?person=${person.id}&updated_since=${at}`, 50);
      await until(
        'the list leaves out the vote written before the instant',
        async () => (JSON.stringify((await asked('2000-01-01T00:00:00.124Z')).map(key)) === JSON.stringify(expected) ? true : undefined),
        10,
      );
      assert.deepEqual((await asked('2000-01-01T00:00:00.123Z')).map(key), everything.map(key));
    } finally {
      await sql`update votes set updated_at = ${was} where ${where}`.execute(v.t.ctx.db);
    }
  });

  test('the earliest update is read once per change of the public record, by one statement however many ask at once; the list then leaves the filter out', async () => {
    let generation = 1;
    let usable = true;
    const channel = { generation: () => generation, usable: () => usable, changeSeq: () => 0, changedAt: () => 0 };
    const floor = createVotesUpdatedFloor(v.t.ctx.db, channel);
    const old = '1900-01-01T00:00:00.000Z';
    const reads = (statements: string[]) => statements.filter((q) => /min\(updated_at\)/.test(q)).length;
    await recordingStatements(v.t, async (statements) => {
      assert.deepEqual(await Promise.all(Array.from({ length: 5 }, () => floor.covers(old))), [true, true, true, true, true]);
      assert.equal(await floor.covers('2999-01-01T00:00:00.000Z'), false);
      assert.equal(reads(statements), 1);
      generation++;
      assert.equal(await floor.covers(old), true);
      assert.equal(reads(statements), 2);
      usable = false;
      assert.equal(await floor.covers(old), false, 'a channel that cannot be trusted keeps the filter');
      assert.equal(reads(statements), 2);
    });
    // Through the route: the person's votes with an old updated_since run without the filter.
    const person = v.seeded.alders.find((a) => a.ward === 25)!;
    await recordingStatements(v.t, async (statements) => {
      await v.get(`/votes?person=${person.id}&updated_since=1901-02-03T04:05:06Z&limit=3`);
      const page = statements.filter((q) => /from "votes" as "v"/.test(q));
      assert.equal(page.length, 1, statements.join('\n'));
      assert.doesNotMatch(page[0]!, /"updated_at" >=/);
      await v.get(`/votes?person=${person.id}&updated_since=2999-02-03T04:05:06Z&limit=3`);
      assert.match(statements.filter((q) => /from "votes" as "v"/.test(q))[1]!, /"v"\."updated_at" >=/);
    });
  });

  test('votes by matter record number and value', async () => {
    const nays = await v.get('/votes?matter=so2026-0025407&value=Nay');
    assert.equal(nays.status, 200);
    assert.deepEqual(
      nays.body.data.map((x: any) => x.ward).sort((a: number, b: number) => a - b),
      [6, 25, 28],
    );
    const bad = await v.get('/votes?value=Maybe');
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /value.*one of/);
  });

  test('roll calls and votes by meeting: the votes of that meeting’s roll calls, each with its roll call’s action and meeting', async () => {
    // The sample's roll calls carry no meeting: two are given one for this test, then taken back.
    const meetingId = v.seeded.meetings[0]!.id;
    const [a, b] = v.seeded.rollCalls.map((r) => r.id);
    await sql`update roll_calls set meeting_id = ${meetingId} where id in (${a!}, ${b!})`.execute(v.t.ctx.db);
    try {
      const rows = await all(`/votes?meeting=${meetingId}`, 7);
      const expected = [...(await all(`/votes?roll_call=${a}`, 50)), ...(await all(`/votes?roll_call=${b}`, 50))];
      assert.ok(expected.length > 0);
      assert.equal(rows.length, expected.length);
      assert.ok(rows.every((x: any) => x.meetingId === meetingId && typeof x.personName === 'string' && typeof x.actionName === 'string'));
      const key = (x: any) => `${x.rollCallId}|${x.personId}`;
      assert.deepEqual(new Set(rows.map(key)), new Set(expected.map(key)));
      // The roll calls of that meeting are those two.
      const calls = await all(`/roll-calls?meeting=${meetingId}`, 5);
      assert.deepEqual(new Set(calls.map((c: any) => c.id)), new Set([a, b]));
    } finally {
      await sql`update roll_calls set meeting_id = null where id in (${a!}, ${b!})`.execute(v.t.ctx.db);
    }
  });
});

describe('meetings, bodies, people', () => {
  test('meetings by body and date range; detail with documents and insights', async () => {
    const zoning = v.seeded.meetings[0]!;
    const r = await v.get(`/meetings?body=${zoning.bodyId}&from=2023-10-12&to=2023-10-12`);
    assert.equal(r.status, 200);
    const expected = v.seeded.meetings.filter((m) => m.bodyId === zoning.bodyId);
    assert.equal(r.body.data.length, expected.length);
    const cancelled = await v.get('/meetings?status=cancelled');
    assert.ok(cancelled.body.data.every((m: any) => m.status === 'cancelled'));
    const d = await v.get(`/meetings/${zoning.id}`);
    assert.equal(d.status, 200);
    assert.ok(d.body.documents.length > 0);
    assert.equal(d.body.insights.agendaItems, d.body.agenda.length);
    assert.equal((await v.get('/meetings/nope')).status, 404);
    assert.equal((await v.get('/meetings?from=2023-10-12&to=2023-10-01')).status, 400);
  });

  test('people: alderpersons by ward with terms; lobbyists are public, unknown ids 404', async () => {
    const ward = await v.get('/people?ward=2');
    assert.equal(ward.body.data.length, 1);
    assert.equal(ward.body.data[0].name, 'Brian Hopkins');
    const detail = await v.get(`/people/${ward.body.data[0].id}`);
    assert.equal(detail.body.terms[0].office, 'Alderperson');
    assert.equal(detail.body.memberships[0].bodyName, 'City Council');
    const lobbyists = await v.get('/people?kind=lobbyist');
    assert.deepEqual(
      lobbyists.body.data.map((p: any) => p.id),
      [LOBBYIST_ID],
    );
    assert.equal((await v.get('/people/nobody')).status, 404);
    assert.equal((await v.get('/people?kind=resident')).status, 400);
  });

  test('bodies with members', async () => {
    const list = await v.get('/bodies?kind=council');
    assert.equal(list.body.data.length, 1);
    const d = await v.get(`/bodies/${list.body.data[0].id}`);
    assert.equal(d.body.members.length, 50);
  });
});

describe('money and lobbying', () => {
  test('receipts by alderperson sum to the committee total and to the yearly totals', async () => {
    const ward1 = v.seeded.alders.find((a) => a.ward === 1)!;
    const receipts = await all(`/money/receipts?person=${ward1.id}`, 3);
    const cents = receipts.reduce((s, r) => s + Math.round(Number(r.amount) * 100), 0);
    const committee = await v.get(`/money/committees/${COMMITTEE_ID}`);
    assert.equal(committee.body.receipts.count, receipts.length);
    assert.equal(Math.round(Number(committee.body.receipts.amount) * 100), cents);
    const totals = await v.get(`/money/totals?ward=1&period=year`);
    assert.equal(
      totals.body.data.reduce((s: number, p: any) => s + Math.round(Number(p.receipts.amount) * 100), 0),
      cents,
    );
    assert.ok(totals.body.data.every((p: any) => /^\d{4}$/.test(p.period) && /^\d+\.\d{2}$/.test(p.receipts.amount)));
    const ranged = await v.get('/money/receipts?from=2016-01-01&to=2016-12-31');
    assert.ok(ranged.body.data.every((r: any) => r.date.startsWith('2016')));
    assert.equal((await v.get('/money/totals?period=week')).status, 400);
  });

  test('lobbying: lobbyist detail, clients, and reports by lobbyist, client and official', async () => {
    const d = await v.get(`/lobbying/lobbyists/${LOBBYIST_ID}`);
    assert.equal(d.status, 200);
    assert.ok(d.body.engagements.length > 0);
    const client = d.body.engagements[0].clientId;
    const comp = await v.get(`/lobbying/compensation?client=${client}`);
    assert.ok(comp.body.data.length > 0 && comp.body.data.every((c: any) => c.clientId === client));
    const ward8 = v.seeded.alders.find((a) => a.ward === 8)!;
    const contributions = await v.get(`/lobbying/contributions?official=${ward8.id}`);
    assert.equal(contributions.body.data.length, 1);
    assert.equal(contributions.body.data[0].recipientPersonId, ward8.id);
    const c = await v.get(`/lobbying/clients/${client}`);
    assert.equal(c.body.engagements[0].lobbyistId, LOBBYIST_ID);
    assert.equal((await v.get('/lobbying/clients/client-0')).status, 404);
    assert.equal((await v.get('/lobbying/activity?official=x')).body.data.length, 0);
  });
});

describe('search and sources', () => {
  test('search ranks across types and pages by cursor', async () => {
    const r = await v.get('/search?q=La Spata');
    assert.equal(r.body.data[0].type, 'person');
    assert.equal(r.body.data[0].title, 'Daniel La Spata');
    const exact = await v.get('/search?q=SO2026-0025407');
    assert.equal(exact.body.data[0].type, 'matter');
    assert.equal(exact.body.data[0].path, '/matters/SO2026-0025407');
    const pages = await all('/search?q=committee', 2);
    const ranks = pages.map((x) => x.rank);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => b - a),
    );
    assert.equal(new Set(pages.map((x) => `${x.type}:${x.id}`)).size, pages.length);
    assert.equal((await v.get('/search')).status, 400);
  });

  test('sources report each source’s freshness', async () => {
    const r = await v.get('/sources');
    const lobbying = r.body.data.find((s: any) => s.source === 'lobbying');
    assert.equal(lobbying.lastError, 'HTTP 503 from data portal');
    assert.equal(lobbying.lastSuccessAt, null);
  });
});

describe('bad input is a 400 with a clear message', () => {
  const cases: [string, RegExp][] = [
    ['/matters?type=Bogus', /Unknown type "Bogus"/],
    ['/matters?limit=0', /limit.*at least 1/],
    ['/matters?limit=201', /limit.*at most 200/],
    ['/matters?limit=ten', /limit.*whole number/],
    ['/matters?colour=red', /Unknown query parameter "colour"/],
    ['/matters?cursor=not-a-cursor', /cursor is malformed/],
    ['/matters?cursor=%25%25', /cursor/],
    ['/matters?introduced_from=2023-02-30', /introduced_from.*YYYY-MM-DD/],
    ['/matters?updated_since=yesterday', /updated_since.*ISO 8601/],
    ['/matters?sort=random', /sort.*one of/],
    ['/matters?sort=relevance', /relevance needs/],
    ['/votes?from=2024-01-01&to=2023-01-01', /date range/],
    ['/people?ward=51', /ward.*at most 50/],
  ];
  for (const [url, message] of cases) {
    test(url, async () => {
      const r = await v.get(url);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.code, 'invalid_request');
      assert.match(r.body.detail, message);
    });
  }

  test('a cursor made for another sort is refused', async () => {
    const first = await v.get('/matters?sort=record&limit=1');
    const r = await v.get(`/matters?sort=-record&cursor=${first.body.meta.nextCursor}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /made for sort "record"/);
  });
});
