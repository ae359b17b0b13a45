// Every field of the graph binds an operation of the catalogue: a top-level field performs its
// operation (the access check runs there, once per field), a nested field loads its record's part
// through a batch operation (./batch.ts), or reads it from the record when the operation that made
// the record already holds it (a matter read by record number has its sponsors). Nothing here reads
// the database or spells out an access rule.
import type { OperationId } from '../../catalogue.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { LimitState } from '../../kernel/limit-state.ts';
import type { Batches } from './batch.ts';

/** What every resolver gets: the caller, the request's batches, and how to perform an operation. */
export interface GraphQLContext {
  actor: Actor;
  batches: Batches;
  perform(id: OperationId, input: Record<string, unknown>): Promise<unknown>;
  /** Performs `answers.create`, counting one AI answer (the request itself is already counted). */
  answer(input: Record<string, unknown>): Promise<unknown>;
  /** The limits after the last count, for the response headers. */
  limits: LimitState | null;
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
  matters: 'matters.list',
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
  search: 'search.read',
};

const field =
  (id: OperationId, extra: Args = {}) =>
  (_: unknown, args: Args, ctx: GraphQLContext) =>
    ctx.perform(id, { ...given(args), ...extra });

/** A part the record may already hold (`own`), else its batch operation loads it. */
const part =
  (op: OperationId, own: string, pickFrom?: string) =>
  async (parent: Parent, _: Args, ctx: GraphQLContext) => {
    if (parent[own] !== undefined) return parent[own];
    const loaded = await ctx.batches.load<Parent | null>(op, parent.id);
    return pickFrom === undefined ? loaded : (loaded?.[pickFrom] ?? []);
  };

/** A record by an id the parent holds (null when it holds none). */
const byId =
  (op: OperationId, key: string) =>
  (parent: Parent, _: Args, ctx: GraphQLContext) =>
    parent[key] == null ? null : ctx.batches.load(op, parent[key]);

/** One page of a list of the parent's, paged as that list is at the top level. */
const pageOf =
  (op: OperationId) =>
  (parent: Parent, args: Args, ctx: GraphQLContext) =>
    ctx.batches.load(op, parent.id, given(args));

const matterActions = part('matters.actions.batch', 'actions');
const meetingPart = (name: string) => part('meetings.details.batch', name, name);
const personPart = (name: string, own = name) => part('people.details.batch', own, name);

export const resolvers = {
  Query: {
    ...Object.fromEntries(Object.entries(top).map(([name, id]) => [name, field(id)])),
    committees: field('bodies.list', { kind: 'committee' }),
  },
  Mutation: {
    answer: (_: unknown, args: Args, ctx: GraphQLContext) => ctx.answer(given(args)),
  },
  Matter: {
    sponsors: part('matters.sponsors.batch', 'sponsors'),
    actions: matterActions,
    rollCalls: part('matters.roll-calls.batch', 'rollCalls'),
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
  Meeting: {
    agenda: meetingPart('agenda'),
    attendance: meetingPart('attendance'),
    documents: meetingPart('documents'),
    testimony: meetingPart('testimony'),
    insights: part('meetings.details.batch', 'insights', 'insights'),
    rollCalls: part('meetings.roll-calls.batch', 'rollCalls'),
  },
  Body: { members: part('bodies.details.batch', 'members', 'members') },
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
  'people.votes.batch',
  'people.sponsored.batch',
  'people.committees.batch',
  'people.lobbying.batch',
];
