// Other-team cases of the team-data routes for the security matrix: team A makes the object
// through the v2 API, team B (same scopes) must get 404 naming it. The matrix database holds no
// public records, so each setup adds the one matter and alderperson it needs.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.ts';
import type { OperationId } from '../../src/catalogue.ts';
import type { Scope } from '../../src/kernel/access.ts';
import type { OtherTeamCase } from './route-table.ts';

const RECORD = 'O2031-0000001';
const PERSON = 'matrix-alder-1';
const allTeamScopes: Scope[] = ['team.follows.write', 'team.notes.write', 'team.positions.read', 'team.positions.write', 'team.dashboards.write'];

type Fixture = Parameters<OtherTeamCase['setup']>[0];

async function publicRecords(ctx: AppContext): Promise<void> {
  const src = (id: string) => ({ source: 'matrix', source_id: id, source_url: null });
  await ctx.db
    .insertInto('matters')
    .values({ id: 'matrix-matter-1', record_number: RECORD, type: 'Ordinance', title: 'Matrix ordinance', ...src('m1') })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await ctx.db
    .insertInto('people')
    .values({ id: PERSON, name: 'Ada Alder', sort_name: 'Alder, Ada', kind: 'alderperson', ward: 1, ...src('p1') })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Calls the v2 API as team A's owner with every team scope. */
async function asOwner(f: Fixture, method: 'POST' | 'PUT', url: string, payload: object): Promise<any> {
  await publicRecords(f.ctx);
  const { key } = await f.ctx.services.credentials.keys.create({
    accountId: f.ownerAccountId,
    teamId: f.ownerTeamId,
    name: 'matrix setup',
    scopes: allTeamScopes,
  });
  const res = await (f.app as FastifyInstance).inject({ method, url: `/api/v2${url}`, headers: { authorization: `Bearer ${key}` }, payload });
  if (res.statusCode >= 300) throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const byId = (make: (f: Fixture) => Promise<string>, body?: unknown): OtherTeamCase => ({
  async setup(f) {
    return { params: { id: await make(f) }, ...(body === undefined ? {} : { body }) };
  },
});
const stance: OtherTeamCase = {
  async setup(f) {
    await asOwner(f, 'PUT', `/team/legislation/${RECORD}/stance`, { stance: 'supports' });
    return { params: { record: RECORD } };
  },
};
const target: OtherTeamCase = {
  async setup(f) {
    await asOwner(f, 'POST', `/team/legislation/${RECORD}/targets`, { personIds: [PERSON] });
    return { params: { record: RECORD, personId: PERSON } };
  },
};
const publicIds = { notTeamOwned: 'record numbers, people and meetings are public records; each team reads its own data about them' };

export const teamDataCases: Partial<Record<OperationId, OtherTeamCase | { notTeamOwned: string }>> = {
  'team.follows.delete': byId(async (f) => (await asOwner(f, 'POST', '/team/follows', { type: 'search', refId: `matrix ${f.ownerTeamId}` })).id),
  'team.notes.update': byId(async (f) => (await asOwner(f, 'POST', '/team/notes', { body: 'A' })).id, { body: 'B' }),
  'team.notes.delete': byId(async (f) => (await asOwner(f, 'POST', '/team/notes', { body: 'A' })).id),
  'team.positions.delete': byId(async (f) => (await asOwner(f, 'PUT', `/team/legislation/${RECORD}/stance`, { stance: 'opposes' })).id),
  'team.dashboards.update': byId(async (f) => (await asOwner(f, 'POST', '/team/dashboards', { name: 'A' })).id, { name: 'B' }),
  'team.dashboards.delete': byId(async (f) => (await asOwner(f, 'POST', '/team/dashboards', { name: 'A' })).id),
  'team.stance.read': stance,
  'team.stance.clear': stance,
  'team.targets.remove': target,
  'team.targets.contacted.add': target,
  'team.targets.contacted.remove': {
    async setup(f) {
      const { params } = await target.setup(f);
      await asOwner(f, 'POST', `/team/legislation/${RECORD}/targets/${PERSON}/contacted`, {});
      return { params };
    },
  },
  // Setting a stance or adding targets on a bill writes the caller's own team's row.
  'team.stance.set': publicIds,
  'team.targets.read': publicIds,
  'team.targets.add': publicIds,
  'people.team.read': publicIds,
  'testimony.list': publicIds,
};
