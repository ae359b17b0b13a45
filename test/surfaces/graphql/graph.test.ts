// The graph against the REST answers for the same records: nested matters, roll calls, people and
// meetings read the same through GraphQL as through v1, cursors continue either way, and a nested
// query makes one SQL statement per level however many records it holds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { dataOf, type Harness, recordingStatements, startGraphQL } from './helpers.ts';

let h: Harness;
let key: string;
before(async () => {
  h = await startGraphQL();
  key = await h.key(['public.read']);
});
after(async () => {
  await h.t.close();
});

const TALLIES = 'tallies { yea nay absent notVoting present recused vacant risingVote }';
const ROLL_CALL = `id matterId recordNumber meetingId bodyId date actionName result sourceUrl updatedAt ${TALLIES} talliesPublished votesReported`;
const MATTER =
  'id recordNumber legacyRecordNumber type title status category keyLegislation introductionDate finalActionDate lastActionDate controllingBodyId topics sponsorNames sourceUrl updatedAt';
const ACTION = 'id sort date name text bodyId bodyName meetingId result';
const VOTE = 'rollCallId personId personName ward value date matterId recordNumber actionName meetingId updatedAt';

const data = (query: string, variables?: Record<string, unknown>) => dataOf(h, key, query, variables);

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

test('matters with sponsors, actions, roll calls and votes read as v1 does, page by page with the same cursors', async () => {
  const query = `query($cursor: String) { matters(limit: 25, cursor: $cursor) { data { ${MATTER} sponsors { personId name role } actions { ${ACTION} }
    rollCalls { ${ROLL_CALL} votes { personId name ward value } } } meta { nextCursor } } }`;
  let cursor: string | null = null;
  let pages = 0;
  let votesSeen = 0;
  let sponsorsSeen = 0;
  do {
    const page: any = (await data(query, cursor ? { cursor } : {})).matters;
    const rest = await h.rest(key, `/matters?limit=25${cursor ? `&cursor=${cursor}` : ''}`);
    assert.deepEqual(
      page.data.map((m: any) => without(m, 'sponsors', 'actions', 'rollCalls')),
      rest.data,
    );
    assert.equal(page.meta.nextCursor, rest.meta.nextCursor);
    for (const m of page.data) {
      const detail = await h.rest(key, `/matters/${m.recordNumber}`);
      assert.deepEqual(m.sponsors, detail.sponsors, m.recordNumber);
      assert.deepEqual(m.actions, detail.actions, m.recordNumber);
      assert.deepEqual(
        m.rollCalls.map((r: any) => without(r, 'votes')),
        detail.rollCalls,
        m.recordNumber,
      );
      for (const r of m.rollCalls) {
        assert.deepEqual(r.votes, (await h.rest(key, `/roll-calls/${r.id}`)).votes);
        votesSeen += r.votes.length;
      }
      sponsorsSeen += m.sponsors.length;
    }
    cursor = page.meta.nextCursor;
    pages++;
  } while (cursor);
  assert.ok(pages > 1, 'the seeded matters fill more than one page');
  assert.ok(votesSeen >= 100 && sponsorsSeen >= 10, `votes ${votesSeen}, sponsors ${sponsorsSeen}`);
});

test("votes asked only for whose and which value come in the roll call's order; an alias asking names beside them gets the names", async () => {
  const bare = (await data(`{ matters(limit: 25) { data { recordNumber rollCalls { id votes { personId value person { name } } } } } }`)).matters.data;
  const mixed = (
    await data(`{ matters(limit: 25) { data { rollCalls { id votes { personId value } named: votes { name ward } } again: rollCalls { votes { name } } } } }`)
  ).matters.data;
  let seen = 0;
  for (const [i, m] of bare.entries()) {
    for (const [j, r] of m.rollCalls.entries()) {
      const rest = (await h.rest(key, `/roll-calls/${r.id}`)).votes as { personId: string; name: string; ward: number | null; value: string }[];
      assert.deepEqual(
        r.votes.map((v: any) => ({ personId: v.personId, value: v.value })),
        rest.map((v) => ({ personId: v.personId, value: v.value })),
        r.id,
      );
      assert.ok(
        r.votes.every((v: any) => typeof v.person?.name === 'string'),
        'each voter read by id',
      );
      const other = mixed[i].rollCalls[j];
      assert.deepEqual(
        other.votes,
        rest.map((v) => ({ personId: v.personId, value: v.value })),
      );
      assert.deepEqual(
        other.named,
        rest.map((v) => ({ name: v.name, ward: v.ward })),
      );
      assert.deepEqual(
        mixed[i].again[j].votes,
        rest.map((v) => ({ name: v.name })),
      );
      seen += r.votes.length;
    }
  }
  assert.ok(seen >= 100, `${seen} votes`);
});

test('roll calls asked only for their core fields are built with those alone and read as v1 does; one field more builds each whole', async () => {
  const core = 'id matterId meetingId bodyId date actionName result sourceUrl talliesPublished';
  let lean: any[] = [];
  let whole: any[] = [];
  await recordingStatements(h, async (statements) => {
    const built = () => statements.filter((s) => /from roll_calls r/.test(s)).splice(0);
    lean = (await data(`{ matters(limit: 25) { data { recordNumber rollCalls { ${core} matter { recordNumber } votes { personId value } } } } }`)).matters.data;
    const leanBuilt = built();
    assert.ok(leanBuilt.length > 0 && leanBuilt.every((s) => !/votesReported|'tallies'/.test(s)), 'PostgreSQL builds the core fields alone');
    whole = (await data(`{ matters(limit: 25) { data { rollCalls { id recordNumber votesReported updatedAt ${TALLIES} } } } }`)).matters.data;
    assert.ok(
      built().some((s) => /votesReported/.test(s)),
      'and every field when one more is asked for',
    );
  });
  let seen = 0;
  for (const [i, m] of lean.entries()) {
    const detail = await h.rest(key, `/matters/${m.recordNumber}`);
    assert.equal(m.rollCalls.length, detail.rollCalls.length, m.recordNumber);
    for (const [j, r] of m.rollCalls.entries()) {
      const rest = detail.rollCalls[j];
      const { votes, matter, ...fields } = r;
      assert.deepEqual(fields, Object.fromEntries(core.split(' ').map((f) => [f, rest[f]])), r.id);
      assert.equal(matter.recordNumber, m.recordNumber);
      const restVotes = (await h.rest(key, `/roll-calls/${r.id}`)).votes as { personId: string; value: string }[];
      assert.deepEqual(
        votes,
        restVotes.map((v) => ({ personId: v.personId, value: v.value })),
      );
      assert.deepEqual(whole[i].rollCalls[j], {
        id: rest.id,
        recordNumber: rest.recordNumber,
        votesReported: rest.votesReported,
        updatedAt: rest.updatedAt,
        tallies: rest.tallies,
      });
      seen++;
    }
  }
  assert.ok(seen >= 3, `${seen} roll calls`);
  // The operation builds the core alone when asked: no computed field comes back.
  const page: any = (
    await h.t.ctx.performer.perform(
      operator,
      'matters.list.parts',
      { limit: 25, parts: ['voteValues'], rollCallShape: 'core' },
      { call: { surface: 'graphql' }, count: false },
    )
  ).result;
  const shapes = new Set(page.data.flatMap((m: any) => m.rollCalls.map((r: any) => Object.keys(r).sort().join(' '))));
  assert.deepEqual([...shapes], [[...core.split(' '), 'votes'].sort().join(' ')]);
});

test('a matter by record number, a roll call by id and the votes list read as v1 does', async () => {
  const rc = h.seeded.rollCalls[0]!;
  const d = await data(
    `query($record: String!, $id: String!, $matter: String) {
    matter(record: $record) { ${MATTER} sponsors { personId name role } actions { ${ACTION} } rollCalls { ${ROLL_CALL} } }
    rollCall(id: $id) { ${ROLL_CALL} votes { personId name ward value } matter { recordNumber title } }
    votes(matter: $matter, limit: 7) { data { ${VOTE} } meta { nextCursor } } }`,
    { record: rc.recordNumber.toLowerCase(), id: rc.id, matter: rc.recordNumber },
  );
  const matter = await h.rest(key, `/matters/${rc.recordNumber}`);
  assert.deepEqual(d.matter, without(matter, 'attachments', 'substituteOf', 'substitutes', 'relatedRecordNumbers'));
  const rollCall = await h.rest(key, `/roll-calls/${rc.id}`);
  assert.deepEqual(without(d.rollCall, 'matter'), without(rollCall, 'matter'));
  assert.deepEqual(d.rollCall.matter, { recordNumber: rollCall.matter.recordNumber, title: rollCall.matter.title });
  assert.deepEqual(d.votes, await h.rest(key, `/votes?matter=${rc.recordNumber}&limit=7`));
});

test("people with their votes, sponsored matters, committees, money and lobbying contacts page as v1's lists", async () => {
  const alder = h.seeded.alders[0]!;
  const query = `query($ids: String, $cursor: String) { people(kind: "alderperson", limit: 3, q: $ids) { data { id } }
    person(id: "${alder.id}") { id name terms { office ward startDate endDate } committees { bodyId bodyName role startDate endDate }
      votes(limit: 3, cursor: $cursor) { data { ${VOTE} } meta { nextCursor } }
      sponsoredMatters(limit: 2) { data { ${MATTER} } meta { nextCursor } }
      campaignCommittees { data { id name isbeId personId personName ward sourceUrl updatedAt } meta { nextCursor } }
      lobbyingContacts(limit: 1) { data { id lobbyistId lobbyistName periodStart periodEnd clientId clientName action actionSought department officialPersonId officialName sourceUrl updatedAt } meta { nextCursor } } } }`;
  const first = (await data(query)).person;
  const detail = await h.rest(key, `/people/${alder.id}`);
  assert.deepEqual(first.terms, detail.terms);
  assert.deepEqual(first.committees, detail.memberships);
  assert.deepEqual(first.votes, await h.rest(key, `/votes?person=${alder.id}&limit=3`));
  assert.ok(first.votes.meta.nextCursor, 'the alderperson has more than three votes');
  assert.deepEqual(first.sponsoredMatters, await h.rest(key, `/matters?sponsor=${alder.id}&limit=2`));
  assert.ok(first.sponsoredMatters.data.length > 0);
  assert.deepEqual(first.campaignCommittees, await h.rest(key, `/money/committees?person=${alder.id}`));
  const contacts = await h.rest(key, `/lobbying/activity?official=${alder.id}&limit=1`);
  assert.deepEqual(first.lobbyingContacts, { data: contacts.data.map((c: any) => c), meta: contacts.meta });
  assert.equal(first.lobbyingContacts.data.length, 1);
  // The nested cursor is the REST list's: page two is the same either way.
  const cursor = first.votes.meta.nextCursor;
  const second = (await data(query, { cursor })).person.votes;
  assert.deepEqual(second, await h.rest(key, `/votes?person=${alder.id}&limit=3&cursor=${cursor}`));
});

test('people in a list get each their own page of votes, as each one alone does', async () => {
  const d = await data(`{ people(kind: "alderperson", limit: 5) { data { id votes(limit: 2) { data { rollCallId personId value } meta { nextCursor } } } } }`);
  assert.equal(d.people.data.length, 5);
  for (const p of d.people.data) {
    const rest = await h.rest(key, `/votes?person=${p.id}&limit=2`);
    assert.deepEqual(
      p.votes.data,
      rest.data.map((v: any) => ({ rollCallId: v.rollCallId, personId: v.personId, value: v.value })),
    );
    assert.equal(p.votes.meta.nextCursor, rest.meta.nextCursor);
  }
});

test('meetings with agenda, attendance, public testimony and insights read as v1 does; residents are never named', async () => {
  const meeting = h.seeded.meetings[0]!;
  const parts = `id agenda { id sort recordNumber title actionText minutesNote matter { id recordNumber type title status } } attendance { personId name ward value }
    documents { name kind url } rollCalls { id } testimony { id matterId speakerName speakerKind organization position mode summary }
    insights { agendaItems matters rollCalls splitVotes present absent absentees { personId name } testimony { total supports opposes neutral } }`;
  const d = await data(`{ meeting(id: "${meeting.id}") { ${parts} } meetings(limit: 10) { data { ${parts} } } }`);
  const rest = await h.rest(key, `/meetings/${meeting.id}`);
  const pick = (m: any) => ({ ...without(m, 'rollCalls'), rollCalls: m.rollCalls.map((r: any) => ({ id: r.id })) });
  const expected = pick({
    id: rest.id,
    agenda: rest.agenda,
    attendance: rest.attendance,
    documents: rest.documents,
    rollCalls: rest.rollCalls,
    testimony: rest.testimony,
    insights: rest.insights,
  });
  assert.deepEqual(pick(d.meeting), expected);
  assert.equal(d.meeting.agenda.length, 2);
  assert.deepEqual(
    d.meeting.testimony.map((x: any) => x.speakerName),
    ['A. Commissioner'],
  );
  assert.equal(d.meeting.insights.testimony.total, 2);
  assert.ok(!JSON.stringify(d).includes('A Resident'));
  // Through the list (the batch path) each meeting reads as its own detail.
  for (const m of d.meetings.data) {
    const r = await h.rest(key, `/meetings/${m.id}`);
    assert.deepEqual(
      pick(m),
      pick({
        id: r.id,
        agenda: r.agenda,
        attendance: r.attendance,
        documents: r.documents,
        rollCalls: r.rollCalls,
        testimony: r.testimony,
        insights: r.insights,
      }),
    );
  }
});

test('committees, bodies with members and search read as v1 does', async () => {
  const d =
    await data(`{ committees(limit: 5) { data { id name kind } meta { nextCursor } } bodies(limit: 3) { data { id name members { personId name ward role startDate endDate } } }
    search(q: "parking", limit: 3) { data { type id title subtitle date path rank updatedAt } meta { nextCursor } } }`);
  const committees = await h.rest(key, '/bodies?kind=committee&limit=5');
  assert.deepEqual(
    d.committees.data,
    committees.data.map((b: any) => ({ id: b.id, name: b.name, kind: b.kind })),
  );
  for (const b of d.bodies.data) assert.deepEqual(b.members, (await h.rest(key, `/bodies/${b.id}`)).members);
  assert.ok(d.bodies.data.some((b: any) => b.members.length > 0));
  assert.deepEqual(d.search, await h.rest(key, '/search?q=parking&limit=3'));
});

test('a nested query makes one SQL statement per level, however many records it holds', async () => {
  await recordingStatements(h, async (statements) => {
    // Public-record reads only (the limit counters are not part of the query).
    const publicReads = () =>
      statements.filter((s) => /\b(matters|roll_calls|votes|people|meetings|matter_sponsors|matter_actions)\b/.test(s) && !/credential_usage_days/.test(s));
    const query = `{ rollCalls(limit: 20) { data { id votes { personId value person { name committees { bodyName } } }
      matter { recordNumber sponsors { name person { ward } } actions { name meeting { id bodyName } } } } } }`;
    const d = await data(query);
    const votes = d.rollCalls.data.flatMap((r: any) => r.votes);
    assert.equal(d.rollCalls.data.length, h.seeded.rollCalls.length);
    assert.ok(votes.length >= 100 && votes.every((v: any) => v.person?.name), `${votes.length} votes, each with its person`);
    // At most one statement per field that loads: roll calls; their votes; the voters; the matters;
    // their sponsors; the sponsors' people (none when every sponsor was already read as a voter,
    // kept for the request); their actions; the meetings. Never one per roll call, vote or matter.
    const perField = 8;
    const votesOf = () => publicReads().filter((s) => /from "votes"/.test(s)).length;
    assert.ok(publicReads().length <= perField, publicReads().join('\n---\n'));
    assert.equal(votesOf(), 1, 'the votes of ten roll calls in one statement');
    statements.length = 0;
    await data(query.replace('limit: 20', 'limit: 2'));
    assert.ok(publicReads().length <= perField, 'two roll calls take no fewer levels than ten');
    assert.equal(votesOf(), 1);
  });
});
