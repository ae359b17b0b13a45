// Batch reads of the public record: the parts of many records at once (sponsors of many matters,
// votes of many roll calls, one page of votes for each of many people), one query per operation.
// The GraphQL surface's loaders perform these for nested fields, so a nested read costs one query
// per level, never one per record. Each answers `{ data }` in the order of `ids`.
import { type TSchema, Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import { pageParams } from '../../kernel/schema.ts';
import type { PublicData } from './index.ts';
import * as s from './schema.ts';
import { coreRollCallFields } from './repo-sql.ts';
import { matterPartNames } from './service.ts';
import type { PageArgs } from './service-batch.ts';

/** The roll call fields of the core shape (`rollCallShape: core`), for a reader choosing it. */
export { coreRollCallFields };

const op = operationsOf<PublicData>();

/** More than a nested read within the GraphQL cost limit ever asks for at one level. */
export const MAX_BATCH = 10_000;

const ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: MAX_BATCH,
  description: 'Ids of the records, in the order the answer keeps.',
});
const IdsInput = Type.Object({ ids }, { additionalProperties: false });
const PagedInput = Type.Object({ ids, ...pageParams }, { additionalProperties: false });

const read = { access: access.open(), limit: 'data', effect: 'read', tags: ['batch'] } as const;

/** Parts per record: `{ data: [part of ids[0], part of ids[1], …] }`. */
const parts = <T extends TSchema>(summary: string, part: T, run: (pd: PublicData, ids: string[]) => Promise<unknown>) =>
  op({
    ...read,
    summary,
    input: IdsInput,
    output: Type.Object({ data: Type.Array(part) }),
    run: async (pd, _actor, input) => ({ data: await run(pd, input.ids) }),
  });

/** One page per record, paged as the record's own list: `{ data: [page of ids[0], …] }`. */
const pages = <T extends TSchema>(summary: string, item: T, run: (pd: PublicData, ids: string[], page: PageArgs) => Promise<unknown>) =>
  op({
    ...read,
    summary,
    input: PagedInput,
    output: Type.Object({ data: Type.Array(s.ListOf(item)) }),
    run: async (pd, _actor, input) => ({ data: await run(pd, input.ids, { limit: input.limit, cursor: input.cursor }) }),
  });

/** Roll calls of many records; `votes: true` adds each roll call's votes (as the roll call's detail has them). */
const RollCallsInput = Type.Object(
  { ids, votes: Type.Optional(Type.Boolean({ description: 'Include every vote of each roll call.' })) },
  { additionalProperties: false },
);
const RollCallsOutput = Type.Object({
  data: Type.Array(Type.Array(Type.Object({ ...s.RollCall.properties, votes: Type.Optional(s.RollCallDetail.properties.votes) }))),
});
const rollCalls = (summary: string, run: (pd: PublicData, ids: string[], votes: boolean) => Promise<unknown>) =>
  op({
    ...read,
    summary,
    input: RollCallsInput,
    output: RollCallsOutput,
    run: async (pd, _actor, input) => ({ data: await run(pd, input.ids, input.votes === true) }),
  });

const MattersWithParts = Type.Object(
  {
    ...s.MattersQuery.properties,
    parts: Type.Array(Type.Enum([...matterPartNames]), {
      maxItems: matterPartNames.length,
      description:
        'Parts each matter carries: sponsors, actions, rollCalls, votes (roll calls with their votes), voteValues (roll calls with each vote’s personId and value only).',
    }),
    rollCallShape: Type.Optional(
      Type.Enum(['full', 'core'], {
        description: `Each roll call with every field (full, the default), or with its core fields only: ${coreRollCallFields.join(', ')} (and its votes when asked for).`,
      }),
    ),
  },
  { additionalProperties: false },
);
/** Votes as the `voteValues` part has them: whose and which value, in the detail's order. */
const VoteValues = Type.Array(Type.Pick(s.RollCallDetail.properties.votes.items, ['personId', 'value']));
const MatterWithParts = Type.Object({
  ...s.Matter.properties,
  sponsors: Type.Optional(s.MatterDetail.properties.sponsors),
  actions: Type.Optional(s.MatterDetail.properties.actions),
  rollCalls: Type.Optional(
    Type.Array(
      Type.Object({
        ...Type.Partial(s.RollCall).properties,
        id: s.RollCall.properties.id,
        votes: Type.Optional(Type.Union([s.RollCallDetail.properties.votes, VoteValues])),
      }),
    ),
  ),
});

export const publicDataBatchOperations = {
  'matters.list.parts': op({
    ...read,
    summary: 'Matters as matters.list pages them, each with the parts asked for (sponsors, actions, roll calls and their votes), in one statement',
    input: MattersWithParts,
    output: s.ListOf(MatterWithParts),
    run: (pd, _actor, { parts, rollCallShape, ...q }) => pd.matters.list(q, parts, rollCallShape),
  }),
  'matters.batch': parts('Matters by id', s.Nullable(s.Matter), (pd, ids) => pd.batch.matters(ids)),
  'matters.sponsors.batch': parts('Sponsors of many matters', Type.Array(s.Sponsor), (pd, ids) => pd.batch.sponsors(ids)),
  'matters.actions.batch': parts('Actions on many matters', Type.Array(s.MatterAction), (pd, ids) => pd.batch.actions(ids)),
  'matters.roll-calls.batch': rollCalls('Roll calls on many matters', (pd, ids, votes) => pd.batch.rollCallsOfMatters(ids, votes)),
  'roll-calls.votes.batch': parts('Every vote of many roll calls', s.RollCallDetail.properties.votes, (pd, ids) => pd.batch.votesOfRollCalls(ids)),
  'meetings.batch': parts('Meetings by id', s.Nullable(s.Meeting), (pd, ids) => pd.batch.meetings(ids)),
  'meetings.roll-calls.batch': rollCalls('Roll calls of many meetings', (pd, ids, votes) => pd.batch.rollCallsOfMeetings(ids, votes)),
  'meetings.details.batch': parts('Agenda, attendance, documents, public testimony and insights of many meetings', s.Nullable(s.MeetingDetail), (pd, ids) =>
    pd.batch.meetingDetails(ids),
  ),
  'people.details.batch': parts('Terms and committee memberships of many public people', s.Nullable(s.PersonDetail), (pd, ids) => pd.batch.personDetails(ids)),
  'bodies.details.batch': parts('Members of many bodies', s.Nullable(s.BodyDetail), (pd, ids) => pd.batch.bodyDetails(ids)),
  'bodies.actions.batch': pages('A page of the actions on matters of each of many bodies (as bodies.actions.list)', s.BodyAction, (pd, ids, page) =>
    pd.batch.actionsOfBodies(ids, page),
  ),
  'people.votes.batch': pages('A page of votes of each of many people (as votes.list with person)', s.Vote, (pd, ids, page) =>
    pd.batch.votesOfPeople(ids, page),
  ),
  'people.sponsored.batch': pages('A page of the matters each of many people sponsored (as matters.list with sponsor)', s.Matter, (pd, ids, page) =>
    pd.batch.sponsoredMatters(ids, page),
  ),
  'people.committees.batch': pages('A page of the campaign committees of each of many alderpersons', s.Committee, (pd, ids, page) =>
    pd.batch.committeesOfPeople(ids, page),
  ),
  'people.lobbying.batch': pages('A page of the lobbying activity naming each of many officials', s.Activity, (pd, ids, page) =>
    pd.batch.lobbyingContacts(ids, page),
  ),
} satisfies Record<string, OperationDef<PublicData, any, any>>;
