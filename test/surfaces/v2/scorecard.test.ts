// The team's scorecard and chart figures on the bundled sample's real roll calls: stances are set
// on bills that have roll calls, and every figure is checked against votes counted here, straight
// from the tables, apart from the service's SQL. The same scorecard comes through v2, MCP and GraphQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { messageOf, rpc } from '../mcp/helpers.ts';
import { api, expectError, expectOk, makeTeam, type Team } from './team-helpers.ts';

let t: TestContext;
let team: Team;
/** Bills with roll calls, and the stance set on each. */
const stances = new Map<string, 'supports' | 'opposes'>();
type Vote = { roll_call_id: string; person_id: string; value: string };

before(async () => {
  t = await startTestContext({ sample: true });
  team = await makeTeam(t, ['team_data', 'advocacy', 'analytics']);
  // Bills whose roll calls split the council (some nays), so agreement varies from person to person.
  const split = await t.ctx.db
    .selectFrom('roll_calls as r')
    .innerJoin('matters as m', 'm.id', 'r.matter_id')
    .select('m.record_number')
    .where('r.nay', '>', 3)
    .orderBy('r.date', 'desc')
    .limit(6)
    .execute();
  for (const [i, r] of split.entries()) stances.set(r.record_number, i % 3 === 2 ? 'opposes' : 'supports');
  assert.ok(stances.size >= 4, 'the sample has split roll calls');
  for (const [record, stance] of stances) expectOk(await api(t)(team.keys.owner, 'PUT', `/team/legislation/${record}/stance`, { stance }));
});
after(async () => {
  await t?.close();
});

/** The latest roll call of each bill (date, then id) and its votes, counted in JavaScript. */
async function expected() {
  const calls = await t.ctx.db
    .selectFrom('roll_calls as r')
    .innerJoin('matters as m', 'm.id', 'r.matter_id')
    .select(['r.id', 'r.date', 'm.record_number'])
    .where('m.record_number', 'in', [...stances.keys()])
    .execute();
  const latest = new Map<string, { id: string; date: string }>();
  for (const c of calls) {
    const date = String((c.date as unknown) instanceof Date ? (c.date as unknown as Date).toISOString() : c.date).slice(0, 10);
    const seen = latest.get(c.record_number);
    if (!seen || date > seen.date || (date === seen.date && c.id > seen.id)) latest.set(c.record_number, { id: c.id, date });
  }
  const votes: Vote[] = await t.ctx.db
    .selectFrom('votes')
    .select(['roll_call_id', 'person_id', 'value'])
    .where(
      'roll_call_id',
      'in',
      [...latest.values()].map((l) => l.id),
    )
    .execute();
  const people = new Map<string, { with: number; against: number; neither: number }>();
  const bills = new Map<string, { yeas: number; nays: number }>();
  for (const [record, { id }] of latest) {
    const stance = stances.get(record)!;
    const mine = votes.filter((v) => v.roll_call_id === id);
    bills.set(record, { yeas: mine.filter((v) => v.value === 'Yea').length, nays: mine.filter((v) => v.value === 'Nay').length });
    for (const v of mine) {
      const p = people.get(v.person_id) ?? { with: 0, against: 0, neither: 0 };
      if (v.value !== 'Yea' && v.value !== 'Nay') p.neither++;
      else if ((v.value === 'Yea') === (stance === 'supports')) p.with++;
      else p.against++;
      people.set(v.person_id, p);
    }
  }
  return { latest, people, bills };
}

test('v2 GET /team/scorecard scores every alderperson against the team’s stances, as the votes count', async () => {
  const card = expectOk(await api(t)(team.keys.member, 'GET', '/team/scorecard'));
  const want = await expected();
  assert.equal(card.bills.length, stances.size);
  for (const b of card.bills) {
    assert.equal(b.stance, stances.get(b.recordNumber));
    assert.equal(b.rollCall.id, want.latest.get(b.recordNumber)!.id, `${b.recordNumber}: the latest roll call is scored`);
    assert.deepEqual({ yeas: b.yeas, nays: b.nays }, want.bills.get(b.recordNumber));
    assert.equal(b.withStance, b.stance === 'supports' ? b.yeas : b.nays);
    assert.equal(b.againstStance, b.stance === 'supports' ? b.nays : b.yeas);
  }
  assert.ok(card.people.length >= 45, `${card.people.length} people scored`);
  assert.equal(card.people.length, want.people.size);
  for (const p of card.people) {
    const w = want.people.get(p.personId)!;
    assert.deepEqual([p.withStance, p.againstStance, p.notVoting], [w.with, w.against, w.neither], p.name);
    assert.equal(p.agreement, w.with + w.against ? w.with / (w.with + w.against) : null);
    assert.equal(p.votes.length, w.with + w.against + w.neither);
    for (const v of p.votes) assert.equal(v.rollCallId, want.latest.get(v.recordNumber)!.id);
  }
  // Some agree with the team more than others, and the default order is highest agreement first.
  const agreements = card.people.map((p: any) => p.agreement ?? -1);
  assert.deepEqual(
    agreements,
    [...agreements].sort((a, b) => b - a),
  );
  assert.ok(new Set(agreements).size > 1, 'agreement differs between alderpersons');
  const byWard = expectOk(await api(t)(team.keys.owner, 'GET', '/team/scorecard?sort=ward'));
  const wards = byWard.people.map((p: any) => p.ward ?? 99);
  assert.deepEqual(
    wards,
    [...wards].sort((a: number, b: number) => a - b),
  );
  expectError(await api(t)(team.keys.owner, 'GET', '/team/scorecard?sort=luck'), 400, 'invalid_request');
});

test('the scorecard needs team.positions.read and a team credential', async () => {
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: team.owner, teamId: team.id, name: 'notes only', scopes: ['team.notes.read'] });
  expectError(await api(t)(key, 'GET', '/team/scorecard'), 403, 'scope_missing');
  const personal = await t.ctx.services.credentials.keys.create({ accountId: team.owner, name: 'personal', scopes: ['me.follows.read'] });
  const res = await api(t)(personal.key, 'GET', '/team/scorecard');
  assert.ok([403].includes(res.statusCode), res.body);
});

test('MCP’s team_scorecard_read and GraphQL’s teamScorecard answer the v2 scorecard', async () => {
  const rest = expectOk(await api(t)(team.keys.owner, 'GET', '/team/scorecard?sort=name'));
  const mcp = messageOf(
    await rpc(t.app, 'tools/call', { name: 'team_scorecard_read', arguments: { sort: 'name' } }, { authorization: `Bearer ${team.keys.owner}` }),
  );
  assert.equal(mcp.result.isError, undefined, JSON.stringify(mcp));
  assert.deepEqual(mcp.result.structuredContent, rest);
  const query =
    '{ teamScorecard(sort: "name") { bills { recordNumber yeas nays withStance againstStance } people { personId name withStance againstStance agreement votes { rollCallId value agrees } } } }';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { authorization: `Bearer ${team.keys.owner}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query }),
  });
  assert.equal(res.statusCode, 200, res.body);
  const graph = res.json().data.teamScorecard;
  assert.deepEqual(
    graph.bills,
    rest.bills.map((b: any) => ({ recordNumber: b.recordNumber, yeas: b.yeas, nays: b.nays, withStance: b.withStance, againstStance: b.againstStance })),
  );
  assert.deepEqual(
    graph.people,
    rest.people.map((p: any) => ({
      personId: p.personId,
      name: p.name,
      withStance: p.withStance,
      againstStance: p.againstStance,
      agreement: p.agreement,
      votes: p.votes.map(({ rollCallId, value, agrees }: any) => ({ rollCallId, value, agrees })),
    })),
  );
});

/** One chart's figures through MCP's generated tool for team.analytics.chart. */
async function chart(kind: string, settings: Record<string, unknown> = {}) {
  const msg = messageOf(
    await rpc(t.app, 'tools/call', { name: 'team_analytics_chart', arguments: { kind, settings } }, { authorization: `Bearer ${team.keys.owner}` }),
  );
  assert.equal(msg.result?.isError, undefined, JSON.stringify(msg));
  return msg.result.structuredContent as { title: string; bars: { label: string; value: number; text: string }[]; note: string | null };
}
const figures = (c: { bars: { label: string; value: number }[] }) => Object.fromEntries(c.bars.map((b) => [b.label, b.value]));
const tally = (values: string[]) => {
  const m: Record<string, number> = {};
  for (const v of values) m[v] = (m[v] ?? 0) + 1;
  return m;
};

test('chart figures match counts made from the rows: voting record, attendance, roll call, money, lobbying, the team’s bills', async () => {
  const db = t.ctx.db;
  const person = (await db.selectFrom('people').select('id').where('kind', '=', 'alderperson').where('ward', '=', 3).executeTakeFirstOrThrow()).id;
  const votes = await db.selectFrom('votes').select('value').where('person_id', '=', person).where('date', '>=', '2024-01-01').execute();
  assert.ok(votes.length > 0);
  assert.deepEqual(figures(await chart('voting_record', { personId: person, from: '2024-01-01' })), tally(votes.map((v) => v.value)));

  const meetings = await db.selectFrom('meetings').select('id').orderBy('start_time', 'desc').orderBy('id', 'desc').limit(20).execute();
  const present = await db
    .selectFrom('attendance')
    .select('value')
    .where(
      'meeting_id',
      'in',
      meetings.map((m) => m.id),
    )
    .execute();
  assert.deepEqual(figures(await chart('attendance')), tally(present.map((a) => a.value)));

  const [record] = [...stances.keys()];
  const rc = await db
    .selectFrom('roll_calls as r')
    .innerJoin('matters as m', 'm.id', 'r.matter_id')
    .select(['r.yea', 'r.nay', 'r.absent'])
    .where('m.record_number', '=', record!)
    .orderBy('r.date', 'desc')
    .orderBy('r.id', 'desc')
    .executeTakeFirstOrThrow();
  const rcFigures = figures(await chart('roll_call', { recordNumber: record }));
  assert.deepEqual([rcFigures.Yea, rcFigures.Nay, rcFigures.Absent], [Number(rc.yea), Number(rc.nay), Number(rc.absent)]);

  const receipts = await db.selectFrom('receipts').select(['received_date', 'amount']).execute();
  const byYear: Record<string, number> = {};
  for (const r of receipts) {
    const year = String((r.received_date as unknown) instanceof Date ? (r.received_date as unknown as Date).toISOString() : r.received_date).slice(0, 4);
    byYear[year] = Math.round(((byYear[year] ?? 0) + Number(r.amount)) * 100) / 100;
  }
  const money = figures(await chart('money_by_period', { period: 'year' }));
  for (const [year, amount] of Object.entries(money)) assert.equal(amount, byYear[year], year);

  const comp = await db.selectFrom('lobbying_compensation').select(['client_id', 'amount']).execute();
  const byClient: Record<string, number> = {};
  for (const c of comp) if (c.client_id) byClient[c.client_id] = (byClient[c.client_id] ?? 0) + Number(c.amount);
  const top = Math.max(...Object.values(byClient));
  const lobbying = await chart('lobbying_by_client');
  assert.equal(lobbying.bars[0]!.value, top);
  assert.equal(lobbying.note, `${comp.length} compensation reports.`);

  const statuses = await db
    .selectFrom('matters')
    .select('status')
    .where('record_number', 'in', [...stances.keys()])
    .execute();
  assert.deepEqual(figures(await chart('team_bills_by_status')), tally(statuses.map((s) => s.status ?? 'No status')));
});

test('how the team’s targets voted agrees with the scorecard; an unknown setting is 400', async () => {
  const card = expectOk(await api(t)(team.keys.owner, 'GET', '/team/scorecard'));
  const [record] = [...stances.keys()];
  const two = card.people.slice(0, 2);
  expectOk(await api(t)(team.keys.owner, 'POST', `/team/legislation/${record}/targets`, { personIds: two.map((p: any) => p.personId) }));
  const c = await chart('team_target_votes');
  assert.equal(c.bars.length, 2);
  for (const p of two) {
    const vote = p.votes.find((v: any) => v.recordNumber === record);
    const bar = c.bars.find((b) => b.label === p.name)!;
    assert.equal(bar.value, vote?.agrees ? 1 : 0, p.name);
  }
  const msg = messageOf(
    await rpc(
      t.app,
      'tools/call',
      { name: 'team_analytics_chart', arguments: { kind: 'roll_call', settings: { personId: 'x' } } },
      { authorization: `Bearer ${team.keys.owner}` },
    ),
  );
  assert.equal(msg.result.isError, true);
  assert.match(JSON.stringify(msg.result.content), /invalid_request|recordNumber/);
});
