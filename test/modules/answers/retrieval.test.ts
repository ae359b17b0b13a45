// Retrieval over the parts of the record the sample lacks: agenda items and public testimony
// (written here the way ingest writes them), with the privacy rule that residents' testimony is
// never retrievable, on the seeded records.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NOTHING_FOUND } from '../../../src/modules/answers/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { COUNCIL_ID, LOBBYIST_ID, type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { answerKey, ask } from './helpers.ts';

let t: TestContext;
let seeded: Seeded;
let key: string;
const MEETING = '05889499-4C56-EE11-BE6E-001DD8098532';

before(async () => {
  t = await startTestContext();
  seeded = await seedPublicData(t.ctx.db);
  ({ key } = await answerKey(t));
  const src = (id: string) => ({ source: 'elms', source_id: id, source_url: null });
  await t.ctx.db
    .insertInto('agenda_items')
    .values({ id: 'item-zebra', meeting_id: MEETING, sort: 1, title: 'Zebra crossing pilot program on Wacker Drive', action_text: 'Held in Committee' })
    .execute();
  await t.ctx.db
    .insertInto('testimony')
    .values([
      {
        id: 't-official',
        meeting_id: MEETING,
        speaker_name: 'Gia Biagi',
        speaker_kind: 'official',
        organization: 'Department of Transportation',
        position: 'supports',
        summary: 'Zebra crossings cut pedestrian injuries at pilot sites',
        ...src('t-official'),
      },
      {
        id: 't-resident',
        meeting_id: MEETING,
        speaker_name: 'Jane Neighbor',
        speaker_kind: 'resident',
        position: 'opposes',
        summary: 'Quokka sanctuary expansion would close my alley',
        ...src('t-resident'),
      },
    ])
    .execute();
});
after(async () => {
  await t.close();
});

test('an agenda item and an official’s testimony are found, and cite their meeting', async () => {
  const body = (await ask(t, key, 'zebra crossing pilot')).json();
  assert.match(
    body.answer,
    /an agenda item of the Committee on Zoning, Landmarks and Building Standards meeting of 2023-10-12: “Zebra crossing pilot program on Wacker Drive”/,
  );
  assert.match(body.answer, /testimony by Gia Biagi \(Department of Transportation\), supports/);
  assert.deepEqual(
    body.citations.map((c: { type: string; id: string }) => `${c.type}:${c.id}`),
    [`meeting:${MEETING}`],
  );
});

test('what a resident said is never retrieved, nor their name', async () => {
  const res = await ask(t, key, 'What was said about the quokka sanctuary expansion?');
  assert.deepEqual(res.json(), { answer: NOTHING_FOUND, citations: [], model: 'extractive' });
  assert.doesNotMatch((await ask(t, key, 'Jane Neighbor')).body, /Jane|Neighbor|quokka/i);
});

test('votes and roll calls of the seeded council', async () => {
  const rc = seeded.rollCalls.find((r) => r.recordNumber === 'SO2026-0025407')!;
  const body = (await ask(t, key, 'How did Ald. Hopkins and Ald. Sigcho-Lopez vote on SO2026-0025407?')).json();
  assert.match(body.answer, /Brian Hopkins \(Ward 2\) voted Yea on SO2026-0025407 on 2026-09-29/);
  assert.match(body.answer, /Byron Sigcho-Lopez \(Ward 25\) voted Nay on SO2026-0025407 on 2026-09-29/);
  assert.ok(body.citations.some((c: { type: string; id: string }) => c.type === 'roll_call' && c.id === rc.id));
});

test('the last council meeting with no business recorded yet is named, and the last sitting that has some answers', async () => {
  await t.ctx.db
    .insertInto('meetings')
    .values({
      id: 'council-2026-10-15',
      body_id: COUNCIL_ID,
      body_name: 'City Council',
      start_time: '2026-10-15T15:00:00Z',
      status: 'held',
      ...{ source: 'elms', source_id: 'council-2026-10-15', source_url: null },
    })
    .execute();
  const body = (await ask(t, key, 'What passed at the last City Council meeting?')).json();
  assert.match(
    body.answer,
    /^The record holds no actions from the meeting of the City Council on 2026-10-15\. At its last sitting with recorded business, on 2026-09-29, the City Council passed 1 matter: SO2026-0025407 .*passed 46–3/,
  );
  const cited = body.citations.map((c: { type: string; id: string }) => `${c.type}:${c.id}`);
  assert.ok(cited.includes('meeting:council-2026-10-15'));
  assert.ok(cited.includes('matter:SO2026-0025407'));
});

test("who gave the most to a ward's alderperson, from the seeded receipts", async () => {
  const body = (await ask(t, key, "Who gave the most to the 1st ward alderperson's committee?")).json();
  assert.match(body.answer, /^The largest contributors to Friends of Daniel La Spata were /);
  assert.deepEqual(
    body.citations.map((c: { type: string }) => c.type),
    ['person', 'committee'],
  );
});

test('who sponsored the most: the alderpersons ranked by the matters they sponsored, co-sponsors counted once a matter', async () => {
  const [a, b, c] = seeded.alders;
  const ordinances = seeded.matters.filter((m) => m.type.toLowerCase() === 'ordinance' && m.introductionDate);
  const others = seeded.matters.filter((m) => m.type.toLowerCase() !== 'ordinance');
  assert.ok(ordinances.length >= 3 && others.length >= 1, 'the seed has ordinances and other matters');
  const rows = [
    // a: lead sponsor of three ordinances, also listed as a co-sponsor of the first (one matter still).
    ...ordinances.slice(0, 3).map((m) => ({ matter_id: m.id, person_id: a!.id, name: a!.name, role: 'sponsor' as const })),
    { matter_id: ordinances[0]!.id, person_id: a!.id, name: a!.name, role: 'cosponsor' as const, sort: 1 },
    // b: co-sponsor of two ordinances and lead of a matter of another kind.
    ...ordinances.slice(0, 2).map((m) => ({ matter_id: m.id, person_id: b!.id, name: b!.name, role: 'cosponsor' as const })),
    { matter_id: others[0]!.id, person_id: b!.id, name: b!.name, role: 'sponsor' as const },
    // c: one ordinance.
    { matter_id: ordinances[0]!.id, person_id: c!.id, name: c!.name, role: 'cosponsor' as const, sort: 2 },
  ];
  await t.ctx.db.insertInto('matter_sponsors').values(rows).execute();
  try {
    const all = (await ask(t, key, 'Which alderperson sponsored the most legislation?')).json();
    assert.match(
      all.answer,
      new RegExp(`${a!.name} \\(Ward ${a!.ward}\\), 3 \\(lead sponsor of 3\\); Ald\\. ${b!.name} \\(Ward ${b!.ward}\\), 3 \\(lead sponsor of 1\\)`),
    );
    const ords = (await ask(t, key, 'Who sponsored the most ordinances?')).json();
    assert.match(
      ords.answer,
      new RegExp(
        `sponsors of the most ordinances, co-sponsors counted: Ald\\. ${a!.name} \\(Ward ${a!.ward}\\), 3 \\(lead sponsor of 3\\); Ald\\. ${b!.name} \\(Ward ${b!.ward}\\), 2 \\(lead sponsor of 0\\); Ald\\. ${c!.name} \\(Ward ${c!.ward}\\), 1`,
      ),
    );
    const cited = ords.citations.map((x: { type: string; id: string }) => `${x.type}:${x.id}`);
    assert.deepEqual(cited.sort(), [a!, b!, c!].map((p) => `person:${p.id}`).sort());
  } finally {
    await t.ctx.db.deleteFrom('matter_sponsors').execute();
  }
});

test('which alderperson was lobbied the most: the officials ranked by the activity reports naming them, cited', async () => {
  const [a, b] = seeded.alders;
  const client = await t.ctx.db.selectFrom('lobbying_clients').select('id').executeTakeFirstOrThrow();
  const report = (id: string, official: string, start: string, end: string) => ({
    id,
    lobbyist_id: LOBBYIST_ID,
    client_id: client.id,
    period_start: start,
    period_end: end,
    action: 'Legislative',
    action_sought: 'Zoning change',
    department: 'City Council',
    official_person_id: official,
    source: 'test',
    source_id: id,
    source_url: null,
  });
  // a: three reports (two in 2022, one in 2023); b: one, in 2023.
  await t.ctx.db
    .insertInto('lobbying_activity')
    .values([
      report('act-a1', a!.id, '2022-01-01', '2022-03-31'),
      report('act-a2', a!.id, '2022-04-01', '2022-06-30'),
      report('act-a3', a!.id, '2023-01-01', '2023-03-31'),
      report('act-b1', b!.id, '2023-04-01', '2023-06-30'),
    ])
    .execute();
  try {
    const all = (await ask(t, key, 'Which alderman was lobbied the most?')).json();
    assert.match(
      all.answer,
      new RegExp(
        `name as contacted most often: Ald\\. ${a!.name} \\(Ward ${a!.ward}\\) \\(3 activity reports by 1 lobbyist for 1 client\\) and Ald\\. ${b!.name} \\(Ward ${b!.ward}\\) \\(1 activity report`,
      ),
    );
    assert.match(all.answer, /from 2022-01-01 to 2023-06-30 only/);
    const cited = all.citations.map((x: { type: string; id: string }) => `${x.type}:${x.id}`);
    assert.deepEqual(cited.sort(), [a!, b!].map((p) => `person:${p.id}`).sort());
    // A period counts the reports within it: in 2023, one each.
    const in2023 = (await ask(t, key, 'Which officials did lobbyists contact most in 2023?')).json();
    assert.match(in2023.answer, /in 2023: Ald\. .+ \(1 activity report by 1 lobbyist for 1 client\) and Ald\. .+ \(1 activity report/);
  } finally {
    await t.ctx.db.deleteFrom('lobbying_activity').where('id', 'like', 'act-%').execute();
  }
});

test('who testified at a meeting: those in a public capacity named with their position, residents counted and never named', async () => {
  const body = (await ask(t, key, 'Who testified at the zoning committee meeting on October 12, 2023?')).json();
  assert.match(
    body.answer,
    /Testimony in a public capacity: Gia Biagi \(Department of Transportation\), supports\. Besides, 1 resident or community member testified \(not named here\)\./,
  );
  assert.doesNotMatch(JSON.stringify(body), /Jane Neighbor|Quokka/);
  assert.ok(body.citations.some((c: { type: string; id: string }) => c.type === 'meeting' && c.id === MEETING));
  // The sample's meetings hold no testimony: said so, not left out.
  const none = (await ask(t, key, 'Who spoke at the last City Council meeting?')).json();
  assert.match(none.answer, /The record holds no testimony for that meeting\./);
});
