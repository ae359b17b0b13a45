// Matters (legislation), roll calls and individual votes.
import { type Static, Type } from 'typebox';
import { voteValues } from './tables.ts';
import { dateFrom, dateTo, ListQuery, Nullable, NullableDate, NullableString, Provenance, qParam, sortParam } from './schema-common.ts';

const RecordNumber = Type.String({ description: 'Record number, e.g. O2023-0001234.' });

export const MatterRef = Type.Object({ id: Type.String(), recordNumber: RecordNumber, title: Type.String() });

export const Tallies = Type.Object({
  yea: Type.Integer(),
  nay: Type.Integer(),
  absent: Type.Integer(),
  notVoting: Type.Integer(),
  present: Type.Integer(),
  recused: Type.Integer(),
  vacant: Type.Integer(),
  risingVote: Type.Integer(),
});

export const RollCall = Type.Object({
  id: Type.String(),
  matterId: NullableString(),
  recordNumber: NullableString('Record number of the matter voted on.'),
  meetingId: NullableString(),
  bodyId: NullableString(),
  date: Type.String({ format: 'date' }),
  actionName: Type.String({ description: 'The action voted on: Passed, Adopted, Failed to Pass, …' }),
  result: NullableString(),
  tallies: Tallies,
  talliesPublished: Type.Boolean({
    description: 'True: the tallies are as the source published them. False: the source published none and they are counted from the votes.',
  }),
  votesReported: Type.Integer({
    description:
      "How many of the roll call's votes the source lists person by person. Lower than the tallies' total where the source left some out (e.g. a ward whose alderperson's vote is missing while the published totals still add up to 50): those votes are not reported, never guessed.",
  }),
  ...Provenance,
});

export const Matter = Type.Object({
  id: Type.String({ description: "The source's matter id." }),
  recordNumber: RecordNumber,
  legacyRecordNumber: NullableString(),
  type: Type.String({ description: 'Ordinance, Resolution, Order, Claim, Appointment, …' }),
  title: Type.String(),
  status: NullableString(),
  category: NullableString(),
  keyLegislation: Type.Boolean(),
  introductionDate: NullableDate('Date introduced.'),
  finalActionDate: NullableDate('Date of the final action.'),
  lastActionDate: NullableDate('Date of the latest action at the source: when the record last changed there (updatedAt is when it last changed here).'),
  controllingBodyId: NullableString('Body that holds the matter now.'),
  topics: Type.Array(Type.String()),
  sponsorNames: Type.String({ description: 'Sponsors, as one line.' }),
  ...Provenance,
});

export const Sponsor = Type.Object({
  personId: NullableString(),
  name: Type.String(),
  role: Type.Enum(['sponsor', 'cosponsor', 'filing_sponsor', 'other']),
});

export const MatterAction = Type.Object({
  id: Type.String(),
  sort: Type.Integer(),
  date: NullableDate('Date of the action.'),
  name: Type.String(),
  text: NullableString(),
  bodyId: NullableString(),
  bodyName: NullableString(),
  meetingId: NullableString(),
  result: NullableString(),
});

export const Attachment = Type.Object({ name: Type.String(), kind: NullableString(), url: Type.String() });

export const MatterDetail = Type.Object({
  ...Matter.properties,
  sponsors: Type.Array(Sponsor),
  actions: Type.Array(MatterAction, { description: 'In the order they happened.' }),
  attachments: Type.Array(Attachment),
  substituteOf: Nullable(MatterRef),
  substitutes: Type.Array(MatterRef, { description: 'Substitutes that replaced this matter.' }),
  relatedRecordNumbers: Type.Array(Type.String()),
  rollCalls: Type.Array(RollCall),
});

/**
 * How many matches relevance ranks: the most recent ones. A common word can match a large share
 * of 200,000 matters, and ranking reads every candidate's tsvector; capping keeps search fast
 * whatever the query. Date sorts page through every match.
 */
export const RANKED_CANDIDATES = 500;

/** The order of a matters list: `sort`, else by relevance when there are words, else newest first. */
export const matterSortOf = (q: { sort?: string | undefined; q?: string | undefined }): string => q.sort ?? (q.q !== undefined ? 'relevance' : '-introduced');

export const MattersQuery = ListQuery({
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Matter type, e.g. Ordinance (case-insensitive; unknown types are refused).' })),
  status: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Status, e.g. Passed (case-insensitive; unknown statuses are refused).' })),
  sponsor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Person id of a sponsor or co-sponsor.' })),
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Id of the controlling body.' })),
  introduced_from: dateFrom('matters introduced'),
  introduced_to: dateTo('matters introduced'),
  q: qParam('record numbers, titles, sponsors and topics'),
  sort: sortParam(['relevance', 'introduced', '-introduced', 'record', '-record'], 'Order: -introduced (default), or relevance (default with q).'),
});

export const RollCallDetail = Type.Object({
  ...RollCall.properties,
  matter: Nullable(MatterRef),
  votes: Type.Array(Type.Object({ personId: Type.String(), name: Type.String(), ward: Nullable(Type.Integer()), value: Type.Enum([...voteValues]) })),
});

export const RollCallsQuery = ListQuery({
  matter: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Record number of the matter.' })),
  meeting: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Meeting id.' })),
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Body id.' })),
  from: dateFrom('roll calls'),
  to: dateTo('roll calls'),
  split: Type.Optional(Type.Boolean({ description: 'Only roll calls with both yeas and nays (true).' })),
  sort: sortParam(['date', '-date'], 'Order: -date (default).'),
});

export const Vote = Type.Object({
  rollCallId: Type.String(),
  personId: Type.String(),
  personName: Type.String(),
  ward: Nullable(Type.Integer()),
  value: Type.Enum([...voteValues]),
  date: Type.String({ format: 'date' }),
  matterId: NullableString(),
  recordNumber: NullableString(),
  actionName: Type.String(),
  meetingId: NullableString(),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const VotesQuery = ListQuery({
  matter: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Record number of the matter (case-insensitive).' })),
  person: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Person id of the voter.' })),
  meeting: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Meeting id.' })),
  roll_call: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Roll call id.' })),
  value: Type.Optional(Type.Enum([...voteValues], { description: 'Only votes of this value.' })),
  from: dateFrom('votes'),
  to: dateTo('votes'),
  sort: sortParam(['-date'], 'Order: newest first.'),
});

export type MatterOut = Static<typeof Matter>;
export type MatterDetailOut = Static<typeof MatterDetail>;
export type MattersInput = Static<typeof MattersQuery>;
export type RollCallOut = Static<typeof RollCall>;
export type RollCallDetailOut = Static<typeof RollCallDetail>;
export type RollCallsInput = Static<typeof RollCallsQuery>;
export type VoteOut = Static<typeof Vote>;
export type VotesInput = Static<typeof VotesQuery>;
