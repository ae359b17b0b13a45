// Shared set-up for the GraphQL tests: the seeded sample (test/helpers/seed.ts) plus the parts it
// lacks (sponsors, actions at meetings, agenda, attendance, testimony, lobbying contacts), the
// service listening on a loopback port, and a GraphQL client over HTTP (a POST or GET with fetch).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { operator } from '../../../src/kernel/actor.ts';
import type { Scope } from '../../../src/kernel/access.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { recordingStatements as recordingInstance } from '../../helpers/statements.ts';

export interface GraphQLAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export interface Harness {
  t: TestContext;
  seeded: Seeded;
  url: string;
  /** A key of a new account with these scopes (and limits high enough for a suite). */
  key(scopes: Scope[], limits?: { requestsPerDay?: number; requestsPerMinute?: number; aiAnswersPerDay?: number }): Promise<string>;
  post(key: string | null, query: string, variables?: Record<string, unknown>, extra?: Record<string, unknown>): Promise<GraphQLAnswer>;
  get(key: string | null, params: Record<string, string>): Promise<GraphQLAnswer>;
  rest(key: string, path: string): Promise<any>;
}

const src = (id: string) => ({ source: 'test', source_id: id, source_url: null });

/** Sponsors, actions, agenda, attendance, testimony and lobbying contacts for the seeded records. */
async function seedParts(t: TestContext, seeded: Seeded): Promise<void> {
  const db = t.ctx.db;
  const [a, b, c] = seeded.alders;
  const meeting = seeded.meetings[0]!;
  for (const [i, rc] of seeded.rollCalls.entries()) {
    await db
      .insertInto('matter_sponsors')
      .values([
        { matter_id: rc.matterId, person_id: a!.id, name: a!.name, role: 'sponsor' },
        { matter_id: rc.matterId, person_id: i % 2 ? b!.id : c!.id, name: i % 2 ? b!.name : c!.name, role: 'cosponsor' },
      ])
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('matter_actions')
      .values({
        id: `action-${i}`,
        matter_id: rc.matterId,
        sort: 1,
        action_date: '2023-07-19',
        action_name: 'Referred',
        action_text: null,
        body_id: meeting.bodyId,
        body_name: 'City Council',
        meeting_id: meeting.id,
        result: null,
        source: 'test',
        source_id: `action-${i}`,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const matter = seeded.rollCalls[0]!;
  await db
    .insertInto('agenda_items')
    .values([
      {
        id: 'agenda-1',
        meeting_id: meeting.id,
        sort: 1,
        matter_id: matter.matterId,
        record_number: matter.recordNumber,
        title: 'First item',
        action_text: 'Passed',
        minutes_note: null,
      },
      {
        id: 'agenda-2',
        meeting_id: meeting.id,
        sort: 2,
        matter_id: null,
        record_number: null,
        title: 'Public comment',
        action_text: null,
        minutes_note: 'Held',
      },
    ])
    .execute();
  await db
    .insertInto('attendance')
    .values([
      { meeting_id: meeting.id, person_id: a!.id, value: 'Present' },
      { meeting_id: meeting.id, person_id: b!.id, value: 'Absent' },
    ])
    .execute();
  await db
    .insertInto('testimony')
    .values([
      {
        id: 'testimony-1',
        meeting_id: meeting.id,
        matter_id: matter.matterId,
        person_id: null,
        speaker_name: 'A. Commissioner',
        speaker_kind: 'official',
        organization: 'Department of Housing',
        position: 'supports',
        mode: 'in_person',
        summary: 'In favour.',
        ...src('t1'),
      },
      {
        id: 'testimony-2',
        meeting_id: meeting.id,
        matter_id: matter.matterId,
        person_id: null,
        speaker_name: 'A Resident',
        speaker_kind: 'resident',
        organization: null,
        position: 'opposes',
        mode: 'virtual',
        summary: 'Against.',
        ...src('t2'),
      },
    ])
    .execute();
  const lobbyist = await db.selectFrom('people').select('id').where('kind', '=', 'lobbyist').executeTakeFirstOrThrow();
  await db
    .insertInto('lobbying_activity')
    .values([
      {
        id: 'act-1',
        lobbyist_id: lobbyist.id,
        client_id: null,
        period_start: '2023-01-01',
        period_end: '2023-03-31',
        action: 'Legislative',
        action_sought: 'Zoning change',
        department: 'City Council',
        official_person_id: a!.id,
        ...src('act-1'),
      },
      {
        id: 'act-2',
        lobbyist_id: lobbyist.id,
        client_id: null,
        period_start: '2023-04-01',
        period_end: '2023-06-30',
        action: 'Legislative',
        action_sought: 'Permit',
        department: 'City Council',
        official_person_id: a!.id,
        ...src('act-2'),
      },
    ])
    .execute();
}

export async function startGraphQL(): Promise<Harness> {
  const t = await startTestContext();
  const seeded = await seedPublicData(t.ctx.db);
  await seedParts(t, seeded);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  let n = 0;
  const answer = async (res: Response): Promise<GraphQLAnswer> => ({ status: res.status, headers: res.headers, body: await res.json() });
  const auth = (key: string | null): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  return {
    t,
    seeded,
    url,
    async key(scopes, limits = { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 }) {
      const account = await t.ctx.services.accounts.create({ email: `graphql-${++n}@example.org` });
      await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits });
      return (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'graphql', scopes })).key;
    },
    async post(key, query, variables, extra = {}) {
      const res = await fetch(`${url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(key) },
        body: JSON.stringify({ query, ...(variables ? { variables } : {}), ...extra }),
      });
      return answer(res);
    },
    async get(key, params) {
      return answer(await fetch(`${url}/api/graphql?${new URLSearchParams(params)}`, { headers: auth(key) }));
    },
    async rest(key, path) {
      const res = await fetch(`${url}/api/v1${path}`, { headers: auth(key) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
  };
}

/** The data of a query that must succeed: 200 and no errors. */
export async function dataOf(h: Harness, key: string, query: string, variables?: Record<string, unknown>): Promise<any> {
  const res = await h.post(key, query, variables);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data;
}

/** Runs `run` while recording the SQL text of every statement the service sends to the database. */
export function recordingStatements<T>(h: Harness, run: (statements: string[]) => Promise<T>): Promise<T> {
  return recordingInstance(h.t, run);
}
