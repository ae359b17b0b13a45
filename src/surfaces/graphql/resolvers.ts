// Every field of the graph binds an operation of the catalogue: a top-level field performs its
// operation (admitted as its REST call is: the access check and the count, once per field), a nested field loads its record's part
// through a batch operation (./batch.ts), or reads it from the record when the operation that made
// the record already holds it (a matter read by record number has its sponsors). Nothing here reads
// the database or spells out an access rule.
import { type FieldNode, type GraphQLResolveInfo, Kind } from 'graphql';
import type { OperationId } from '../../catalogue.ts';
import { coreRollCallFields } from '../../modules/public-data/operations-batch.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { Batches } from './batch.ts';

/** What every resolver gets: the caller, the request's batches, and how to perform an operation. */
export interface GraphQLContext {
  actor: Actor;
  /** Whether a top-level field was admitted (then the request is counted by it). */
  admitted: boolean;
  batches: Batches;
  /**
   * A top-level field: its operation admitted (the access check, and one request against the
   * limits, as its REST call counts) and run.
   */
  root(id: OperationId, input: Record<string, unknown>): Promise<unknown>;
  /** A nested field's read, within its top-level field's count. */
  perform(id: OperationId, input: Record<string, unknown>): Promise<unknown>;
  /** Performs `answers.create` as POST /answers does: one request and one AI answer. */
  answer(input: Record<string, unknown>): Promise<unknown>;
}

type Args = Record<string, unknown>;
type Parent = Record<string, any>;

/** GraphQL's null is "not given" for an operation's optional input. */
export function given(args: Args): Args {
  const out: Args = {};
  for (const key in args) if (args[key] != null) out[key] = args[key];
  return out;
}

/** Top-level fields and the operation each performs. */
const top: Record<string, OperationId> = {
  matter: 'matters.read',
  rollCalls: 'roll-calls.list',
  rollCall: 'roll-calls.read',
  votes: 'votes.list',
  meetings: 'meetings.list',
  meeting: 'meetings.read',
  bodies: 'bodies.list',
  body: 'bodies.read',
  people: 'people.public.list',
  person: 'people.public.read',
  ward: 'wards.locate',
  search: 'search.read',
  sources: 'sources.read',
  campaignCommittees: 'money.committees.list',
  campaignCommittee: 'money.committees.read',
  receipts: 'money.receipts.list',
  expenditures: 'money.expenditures.list',
  moneyTotals: 'money.totals.read',
  lobbyists: 'lobbying.lobbyists.list',
  lobbyist: 'lobbying.lobbyists.read',
  lobbyingClients: 'lobbying.clients.list',
  lobbyingClient: 'lobbying.clients.read',
  lobbyingEmployers: 'lobbying.employers.list',
  lobbyingEmployer: 'lobbying.employers.read',
  lobbyingCompensation: 'lobbying.compensation.list',
  lobbyingExpenditures: 'lobbying.expenditures.list',
  lobbyingContributions: 'lobbying.contributions.list',
  lobbyingActivity: 'lobbying.activity.list',
  teamScorecard: 'team.scorecard.read',
};

const field =
  (id: OperationId, extra: Args = {}) =>
  (_: unknown, args: Args, ctx: GraphQLContext) =>
    ctx.root(id, { ...given(args), ...extra });

/** A part the record may already hold (`own`), else its batch operation loads it. */
const part = (op: OperationId, own: string, pickFrom?: string) => async (parent: Parent, _: Args, ctx: GraphQLContext) => {
  if (parent[own] !== undefined) return parent[own];
  const loaded = await ctx.batches.load<Parent | null>(op, parent.id);
  return pickFrom === undefined ? loaded : (loaded?.[pickFrom] ?? []);
};

/** A record by an id the parent holds (null when it holds none). */
const byId = (op: OperationId, key: string) => (parent: Parent, _: Args, ctx: GraphQLContext) =>
  parent[key] == null ? null : ctx.batches.load(op, parent[key]);

/**
 * A record the parent holds as a reference (`{ id, … }`, as REST presents it): the reference itself
 * when the selection asks only for what it holds, else the whole record through `op`'s batch.
 */
const refOr = (op: OperationId, key: string, held: ReadonlySet<string>) => (parent: Parent, _: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
  const ref = parent[key] as Parent | null | undefined;
  if (ref == null) return null;
  const more = info.fieldNodes.some((node) => node.selectionSet?.selections.some((sel) => sel.kind !== Kind.FIELD || !held.has(sel.name.value)));
  return more ? ctx.batches.load(op, ref.id) : ref;
};

/** Whether the field's selection asks for `name` directly (a fragment's ask is served by the next level). */
const selects = (info: GraphQLResolveInfo, name: string) =>
  info.fieldNodes.some((node) => node.selectionSet?.selections.some((sel) => sel.kind === Kind.FIELD && sel.name.value === name));

/**
 * Roll calls of the parent; when their votes are selected too, they come in the same statement
 * (one round trip for two levels), and RollCall.votes finds them on the roll call.
 */
const rollCallsOf =
  (op: 'matters.roll-calls.batch' | 'meetings.roll-calls.batch') => (parent: Parent, _: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) => {
    if (parent.rollCalls !== undefined) return parent.rollCalls;
    return ctx.batches.load(op, parent.id, selects(info, 'votes') ? { votes: true } : undefined);
  };

/** The fields selected under `field`, each name with every node that selects it (aliases; a fragment's are loaded by the next level). */
function selectedUnder(info: GraphQLResolveInfo, field: string): Map<string, FieldNode[]> {
  const found = new Map<string, FieldNode[]>();
  for (const node of info.fieldNodes) {
    for (const sel of node.selectionSet?.selections ?? []) {
      if (sel.kind !== Kind.FIELD || sel.name.value !== field) continue;
      for (const inner of sel.selectionSet?.selections ?? []) {
        if (inner.kind === Kind.FIELD) found.set(inner.name.value, [...(found.get(inner.name.value) ?? []), inner]);
      }
    }
  }
  return found;
}

/** Vote fields a roll call's vote answers from its person id and value alone. */
const VALUE_FIELDS = new Set(['personId', 'value', 'person', '__typename']);

/**
 * Which roll call part the matters carry for a `rollCalls` selection: without votes, with votes,
 * or with each vote's person id and value only when the votes select nothing else (a fragment
 * under votes may ask for anything, so it takes the whole votes).
 */
function rollCallsPart(rollCalls: FieldNode[]): 'rollCalls' | 'votes' | 'voteValues' {
  const votes = rollCalls.flatMap(
    (node) => node.selectionSet?.selections.filter((sel): sel is FieldNode => sel.kind === Kind.FIELD && sel.name.value === 'votes') ?? [],
  );
  if (votes.length === 0) return 'rollCalls';
  const bare = votes.every((v) => v.selectionSet?.selections.every((sel) => sel.kind === Kind.FIELD && VALUE_FIELDS.has(sel.name.value)));
  return bare ? 'voteValues' : 'votes';
}

/** RollCall fields answered from its core fields (coreRollCallFields): its matter and meeting are loaded by the ids it carries. */
const CORE_ROLL_CALL_FIELDS = new Set<string>([...coreRollCallFields, 'matter', 'meeting', 'votes', '__typename']);

/**
 * Whether a `rollCalls` selection reads only a roll call's core fields (then PostgreSQL builds
 * only those, as PostGraphile builds only the fields asked for); a fragment may ask for anything.
 */
const asksCoreOnly = (rollCalls: FieldNode[]) =>
  rollCalls.every((node) => node.selectionSet?.selections.every((sel) => sel.kind === Kind.FIELD && CORE_ROLL_CALL_FIELDS.has(sel.name.value)));

/**
 * The matter list; when the query selects the matters' sponsors, actions or roll calls (and their
 * votes), the list carries them (`matters.list.parts`: one statement for the whole nested read),
 * and the nested fields find them on each matter. The page is the same either way.
 */
async function matters(_: unknown, args: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) {
  const selected = selectedUnder(info, 'data');
  const parts: string[] = [];
  if (selected.has('sponsors')) parts.push('sponsors');
  if (selected.has('actions') || selected.has('meetings')) parts.push('actions');
  const rollCalls = selected.get('rollCalls');
  if (rollCalls) parts.push(rollCallsPart(rollCalls));
  if (parts.length === 0) return ctx.root('matters.list', given(args));
  return ctx.root('matters.list.parts', { ...given(args), parts, ...(rollCalls && asksCoreOnly(rollCalls) ? { rollCallShape: 'core' } : {}) });
}

/** One page of a list of the parent's, paged as that list is at the top level. */
const pageOf = (op: OperationId) => (parent: Parent, args: Args, ctx: GraphQLContext) => ctx.batches.load(op, parent.id, given(args));

const matterActions = part('matters.actions.batch', 'actions');
const meetingPart = (name: string) => part('meetings.details.batch', name, name);
const personPart = (name: string, own = name) => part('people.details.batch', own, name);

export const resolvers = {
  Query: {
    ...Object.fromEntries(Object.entries(top).map(([name, id]) => [name, field(id)])),
    matters,
    committees: field('bodies.list', { kind: 'committee' }),
  },
  Mutation: {
    answer: (_: unknown, args: Args, ctx: GraphQLContext) => ctx.answer(given(args)),
  },
  Matter: {
    sponsors: part('matters.sponsors.batch', 'sponsors'),
    actions: matterActions,
    rollCalls: rollCallsOf('matters.roll-calls.batch'),
    async meetings(parent: Parent, args: Args, ctx: GraphQLContext) {
      const actions = (await matterActions(parent, args, ctx)) as { meetingId: string | null }[];
      const ids = [...new Set(actions.map((a) => a.meetingId).filter((id): id is string => id != null))];
      const meetings = await Promise.all(ids.map((id) => ctx.batches.load<Parent | null>('meetings.batch', id)));
      return meetings.filter((m) => m !== null);
    },
  },
  Sponsor: { person: byId('people.details.batch', 'personId') },
  MatterAction: { meeting: byId('meetings.batch', 'meetingId') },
  RollCall: {
    votes: part('roll-calls.votes.batch', 'votes'),
    // A roll call read by id carries a reference to its matter; the field is the whole matter.
    matter: byId('matters.batch', 'matterId'),
    meeting: byId('meetings.batch', 'meetingId'),
  },
  RollCallVote: { person: byId('people.details.batch', 'personId') },
  ScoredPerson: { person: byId('people.details.batch', 'personId') },
  Meeting: {
    agenda: meetingPart('agenda'),
    attendance: meetingPart('attendance'),
    documents: meetingPart('documents'),
    testimony: meetingPart('testimony'),
    insights: part('meetings.details.batch', 'insights', 'insights'),
    rollCalls: rollCallsOf('meetings.roll-calls.batch'),
  },
  Body: {
    members: part('bodies.details.batch', 'members', 'members'),
    actions: pageOf('bodies.actions.batch'),
  },
  BodyAction: {
    matter: refOr('matters.batch', 'matter', new Set(['id', 'recordNumber', 'title', '__typename'])),
    meeting: byId('meetings.batch', 'meetingId'),
  },
  Person: {
    terms: personPart('terms'),
    committees: personPart('memberships'),
    votes: pageOf('people.votes.batch'),
    sponsoredMatters: pageOf('people.sponsored.batch'),
    campaignCommittees: pageOf('people.committees.batch'),
    lobbyingContacts: pageOf('people.lobbying.batch'),
  },
};

/** Every operation the graph binds, for the route inventory. */
export const graphqlOperations: readonly OperationId[] = [
  ...Object.values(top),
  'matters.list',
  'matters.list.parts',
  'answers.create',
  'matters.sponsors.batch',
  'matters.actions.batch',
  'matters.roll-calls.batch',
  'matters.batch',
  'meetings.batch',
  'meetings.details.batch',
  'meetings.roll-calls.batch',
  'roll-calls.votes.batch',
  'people.details.batch',
  'bodies.details.batch',
  'bodies.actions.batch',
  'people.votes.batch',
  'people.sponsored.batch',
  'people.committees.batch',
  'people.lobbying.batch',
];
