// Fields binding the operations REST v1 offers beside the core graph: a body's actions (nested,
// paged as /bodies/{id}/actions, loaded for every body of a list in one statement), the ward of a
// point (as /wards?lat=…&lon=…), source freshness, campaign money and lobbying disclosures, each
// answering what v1 answers for the same records.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildSchema, getNamedType, type GraphQLObjectType, isObjectType } from 'graphql';
import { typeDefs } from '../../../src/surfaces/graphql/schema.ts';
import { COMMITTEE_ID, LOBBYIST_ID } from '../../helpers/seed.ts';
import { dataOf, type Harness, recordingStatements, startGraphQL } from './helpers.ts';

let h: Harness;
let key: string;
let actingBodies: string[];
before(async () => {
  h = await startGraphQL();
  key = await h.key(['public.read']);
  // The seeded actions are all the council's; give three committees actions of their own, on
  // several dates and one undated (nulls come last in the newest-first order).
  const committees = await h.t.ctx.db.selectFrom('bodies').select(['id', 'name']).where('kind', '=', 'committee').orderBy('id').limit(3).execute();
  assert.equal(committees.length, 3, 'the sample has committees');
  const rows = committees.flatMap((body, b) =>
    h.seeded.rollCalls.slice(0, 3 + 2 * b).map((rc, i) => ({
      id: `committee-action-${b}-${i}`,
      matter_id: rc.matterId,
      sort: 2,
      action_date: i === 1 ? null : `2023-0${1 + (i % 6)}-1${b}`,
      action_name: i % 2 ? 'Recommended to Pass' : 'Referred',
      action_text: i % 2 ? null : 'Referred to committee',
      body_id: body.id,
      body_name: body.name,
      meeting_id: i === 0 ? h.seeded.meetings[0]!.id : null,
      result: i % 2 ? 'Pass' : null,
      source: 'test',
      source_id: `committee-action-${b}-${i}`,
    })),
  );
  await h.t.ctx.db.insertInto('matter_actions').values(rows).execute();
  actingBodies = [h.seeded.meetings[0]!.bodyId, ...committees.map((c) => c.id)];
  // The sample's campaign committee has receipts only; give it some spending.
  await h.t.ctx.db
    .insertInto('expenditures')
    .values(
      ['2023-01-05', '2023-02-11', '2023-02-11'].map((date, i) => ({
        id: `expenditure-${i}`,
        committee_id: COMMITTEE_ID,
        expended_date: date,
        amount: `${100 + i}.50`,
        payee: `Payee ${i}`,
        purpose: i ? 'Printing' : null,
        address: null,
        city: 'Chicago',
        state: 'IL',
        zip: null,
        source: 'test',
        source_id: `expenditure-${i}`,
        source_url: null,
      })),
    )
    .execute();
});
after(async () => {
  await h.t.close();
});

const ACTION = 'id date name text result meetingId matter { id recordNumber title } updatedAt';
const PERSON = 'id name sortName kind ward current organization email phone website photoUrl sourceUrl updatedAt';

const data = (query: string, variables?: Record<string, unknown>) => dataOf(h, key, query, variables);

test("a body's actions page as /bodies/{id}/actions does, with the same cursors", async () => {
  const query = `query($id: String!, $cursor: String) { body(id: $id) { id actions(limit: 2, cursor: $cursor) { data { ${ACTION} } meta { nextCursor } } } }`;
  for (const id of actingBodies) {
    let cursor: string | null = null;
    let pages = 0;
    let seen = 0;
    do {
      const page: any = (await data(query, { id, cursor })).body.actions;
      assert.deepEqual(page, await h.rest(key, `/bodies/${id}/actions?limit=2${cursor ? `&cursor=${cursor}` : ''}`), `${id} page ${pages + 1}`);
      seen += page.data.length;
      cursor = page.meta.nextCursor;
      pages++;
    } while (cursor);
    assert.ok(pages > 1 && seen >= 3, `${id}: ${seen} actions in ${pages} pages`);
  }
});

test('bodies in a list get each their own first page of actions, as each one alone does', async () => {
  const d = await data(`{ bodies(limit: 200) { data { id actions(limit: 3) { data { ${ACTION} } meta { nextCursor } } } } }`);
  const withActions = d.bodies.data.filter((b: any) => b.actions.data.length > 0).map((b: any) => b.id);
  assert.deepEqual([...withActions].sort(), [...actingBodies].sort());
  for (const b of d.bodies.data) assert.deepEqual(b.actions, await h.rest(key, `/bodies/${b.id}/actions?limit=3`), b.id);
});

test("an action's matter beyond the reference, and its meeting, load as the records themselves", async () => {
  const id = actingBodies[1]!;
  const d = await data(`{ body(id: "${id}") { actions(limit: 50) { data { id meetingId matter { recordNumber status type } meeting { id bodyName } } } } }`);
  const actions = d.body.actions.data;
  assert.ok(actions.some((a: any) => a.meeting !== null));
  for (const a of actions) {
    const matter = await h.rest(key, `/matters/${a.matter.recordNumber}`);
    assert.deepEqual(a.matter, { recordNumber: matter.recordNumber, status: matter.status, type: matter.type });
    assert.equal(a.meeting?.id ?? null, a.meetingId);
  }
});

test('the actions of every body of a list take one SQL statement, and their references none more', async () => {
  await recordingStatements(h, async (statements) => {
    const of = (table: string) => statements.filter((s) => new RegExp(`from "?${table}"?\\b`).test(s));
    const d = await data(`{ bodies(limit: 200) { data { id actions(limit: 2) { data { id matter { id recordNumber title } } } } } }`);
    assert.ok(d.bodies.data.filter((b: any) => b.actions.data.length > 0).length >= 4);
    assert.equal(of('matter_actions').length, 1, of('matter_actions').join('\n---\n'));
    assert.equal(of('matters').length, 0, 'the matter reference comes with the action');
    statements.length = 0;
    await data(`{ bodies(limit: 200) { data { id actions(limit: 2) { data { id matter { status } } } } } }`);
    assert.equal(of('matter_actions').length, 1);
    assert.equal(of('matters').length, 1, 'the matters of every action in one statement');
  });
});

test('ward(lat, lon) answers what /wards answers: City Hall is in ward 42 with its alderperson', async () => {
  const d = await data(`{ ward(lat: 41.8837, lon: -87.6318) { lat lon ward boundaries alderperson { ${PERSON} } } }`);
  const rest = await h.rest(key, '/wards?lat=41.8837&lon=-87.6318');
  assert.deepEqual(d.ward, rest);
  assert.equal(d.ward.ward, 42);
  assert.ok(d.ward.alderperson, 'the sample has the alderperson of ward 42');
  // The alderperson is a Person of the graph: its parts load as any person's do.
  const terms = (await data(`{ ward(lat: 41.8837, lon: -87.6318) { alderperson { terms { office ward } } } }`)).ward.alderperson.terms;
  assert.deepEqual(
    terms,
    (await h.rest(key, `/people/${rest.alderperson.id}`)).terms.map((t: any) => ({ office: t.office, ward: t.ward })),
  );
});

test('a point in the lake is in no ward, as /wards says; coordinates out of range are refused as REST refuses them', async () => {
  const d = await data(`{ ward(lat: 41.9, lon: -87.5) { lat lon ward boundaries alderperson { id } } }`);
  assert.deepEqual(d.ward, await h.rest(key, '/wards?lat=41.9&lon=-87.5'));
  assert.equal(d.ward.ward, null);
  assert.equal(d.ward.alderperson, null);
  const bad = await h.post(key, '{ ward(lat: 95, lon: -87.6) { ward } }');
  assert.equal(bad.body.errors?.[0]?.extensions?.code, 'invalid_request', JSON.stringify(bad.body));
  assert.match(bad.body.errors[0].message, /lat.*90/);
  const res = await fetch(`${h.url}/api/v1/wards?lat=95&lon=-87.6`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 400);
});

const schema = buildSchema(typeDefs);

/** Every field of a type, nested objects' fields too: a selection that leaves nothing of REST's out. */
function everything(type: GraphQLObjectType): string {
  return Object.values(type.getFields())
    .filter((f) => f.args.length === 0)
    .map((f) => {
      const named = getNamedType(f.type);
      return isObjectType(named) ? `${f.name} { ${everything(named)} }` : f.name;
    })
    .join(' ');
}

/** The whole selection under a top-level field. */
const all = (field: string) => everything(getNamedType(schema.getQueryType()!.getFields()[field]!.type) as GraphQLObjectType);

const lists: [field: string, path: string][] = [
  ['campaignCommittees', '/money/committees'],
  ['receipts', '/money/receipts'],
  ['expenditures', '/money/expenditures'],
  ['lobbyists', '/lobbying/lobbyists'],
  ['lobbyingClients', '/lobbying/clients'],
  ['lobbyingEmployers', '/lobbying/employers'],
  ['lobbyingCompensation', '/lobbying/compensation'],
  ['lobbyingExpenditures', '/lobbying/expenditures'],
  ['lobbyingContributions', '/lobbying/contributions'],
  ['lobbyingActivity', '/lobbying/activity'],
];

test('money and lobbying lists page as v1 does, with the same cursors', async () => {
  for (const [field, path] of lists) {
    const query = `query($cursor: String) { ${field}(limit: 2, cursor: $cursor) { ${all(field)} } }`;
    let cursor: string | null = null;
    let pages = 0;
    let seen = 0;
    do {
      const page: any = (await data(query, { cursor }))[field];
      assert.deepEqual(page, await h.rest(key, `${path}?limit=2${cursor ? `&cursor=${cursor}` : ''}`), `${field} page ${pages + 1}`);
      seen += page.data.length;
      cursor = page.meta.nextCursor;
      pages++;
    } while (cursor && pages < 3);
    assert.ok(seen > 0, `${field}: the sample has records`);
  }
});

test('a committee, a lobbyist, a client and an employer, the totals and the sources read as v1 does', async () => {
  const first = await data('{ lobbyingClients(limit: 1) { data { id } } lobbyingEmployers(limit: 1) { data { id } } }');
  const client = first.lobbyingClients.data[0].id;
  const employer = first.lobbyingEmployers.data[0].id;
  const reads: [field: string, args: string, path: string][] = [
    ['campaignCommittee', `id: "${COMMITTEE_ID}"`, `/money/committees/${COMMITTEE_ID}`],
    ['lobbyist', `id: "${LOBBYIST_ID}"`, `/lobbying/lobbyists/${LOBBYIST_ID}`],
    ['lobbyingClient', `id: "${client}"`, `/lobbying/clients/${client}`],
    ['lobbyingEmployer', `id: "${employer}"`, `/lobbying/employers/${employer}`],
    ['moneyTotals', `committee: "${COMMITTEE_ID}", period: "quarter"`, `/money/totals?committee=${COMMITTEE_ID}&period=quarter`],
    ['moneyTotals', '', '/money/totals'],
  ];
  for (const [field, args, path] of reads) {
    const d = await data(`{ ${field}${args ? `(${args})` : ''} { ${all(field)} } }`);
    assert.deepEqual(d[field], await h.rest(key, path), path);
  }
  const d = await data(`{ sources { ${all('sources')} } }`);
  assert.deepEqual(d.sources, await h.rest(key, '/sources'));
  assert.ok(d.sources.data.length > 0);
  const missing = await h.post(key, '{ lobbyist(id: "lobbyist-none") { id } }');
  assert.equal(missing.body.errors?.[0]?.extensions?.code, 'not_found', JSON.stringify(missing.body));
});
