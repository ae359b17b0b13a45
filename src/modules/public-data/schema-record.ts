// A public person's record as the website summarises it, and a committee's largest contributors.
import { type Static, Type } from 'typebox';
import { Money, Nullable, NullableDate, sortParam } from './schema-common.ts';

/** How many people "who votes most like them" names, and over how many shared roll calls at least. */
export const ALIKE_LIMIT = 5;
export const ALIKE_MIN = 10;

/** What the council comparison sorts by ("-" first for descending). */
export const compareSortKeys = ['ward', 'name', 'attendance', 'alignment', 'minority', 'sponsored', 'passed'] as const;
const compareSorts = compareSortKeys.flatMap((k) => [k, `-${k}`]);

/** An alderperson named in a comparison. */
const PersonRef = { personId: Type.String(), name: Type.String(), ward: Nullable(Type.Integer()) };
const PersonName = { personId: Type.String(), name: Type.String() };

/** Agreement with the council majority, as the person record and the comparison count it. */
const majorityFields = {
  decided: Type.Integer({ description: 'Yea or Nay votes on roll calls whose yeas and nays were not tied.' }),
  withMajority: Type.Integer({ description: 'Of those, votes on the side with more votes.' }),
  alignment: Type.Union([Type.Number(), Type.Null()], { description: 'withMajority / decided (0–1); null when nothing was decided.' }),
  inMinority: Type.Integer({ description: 'Of those, votes on the side with fewer votes.' }),
};

export const PersonRecordQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Person id.' }) }, { additionalProperties: false });

export const PersonRecord = Type.Object({
  personId: Type.String(),
  votes: Type.Object({
    total: Type.Integer({ description: 'Roll calls the person was called on.' }),
    yea: Type.Integer(),
    nay: Type.Integer(),
    absent: Type.Integer({ description: 'Absent or not voting.' }),
    other: Type.Integer({ description: 'Present, recused and the other values.' }),
    attendance: Type.Union([Type.Number(), Type.Null()], { description: 'Share of roll calls not missed (0–1); null without roll calls.' }),
    ...majorityFields,
    firstDate: NullableDate('First roll call.'),
    lastDate: NullableDate('Latest roll call.'),
  }),
  sponsored: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() }), {
    description: 'Matters the person sponsored or co-sponsored, counted by their current status.',
  }),
  mostAlike: Type.Array(
    Type.Object({
      ...PersonRef,
      together: Type.Integer({ description: 'Roll calls both attended (neither absent nor not voting): what the agreement rests on.' }),
      agreed: Type.Integer({ description: 'Of those, roll calls on which both cast the same vote.' }),
      agreement: Type.Number({ description: 'agreed / together (0–1).' }),
    }),
    {
      description: `Who votes most like this person: the ${ALIKE_LIMIT} with the highest agreement over at least ${ALIKE_MIN} roll calls both attended, most shared roll calls first on a tie.`,
    },
  ),
});

export const CouncilCompareQuery = Type.Object(
  {
    sort: sortParam(
      [...compareSorts],
      'Order: ward (default), name, attendance, alignment (agreement with the majority), minority (roll calls in the minority), sponsored or passed (legislation); ties by ward.',
    ),
  },
  { additionalProperties: false },
);

export const CouncilCompare = Type.Object({
  data: Type.Array(
    Type.Object({
      ...PersonRef,
      rollCalls: Type.Integer({ description: 'Roll calls the alderperson was called on (votes recorded by name).' }),
      attended: Type.Integer({ description: 'Of those, roll calls not missed (a vote other than absent or not voting).' }),
      attendance: Nullable(Type.Number({ description: 'attended / rollCalls (0–1); null without roll calls.' })),
      ...majorityFields,
      sponsored: Type.Integer({ description: 'Matters sponsored or co-sponsored.' }),
      passed: Type.Integer({ description: 'Of those, matters whose status says passed, adopted or approved.' }),
    }),
  ),
  meta: Type.Object({ sort: Type.String({ description: 'The order applied.' }) }),
});

export const ContributorsQuery = Type.Object(
  {
    committee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Committee id (committee-<ISBE id>).' })),
    person: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Alderperson's person id: all of their committees." })),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many contributors (1–50, default 10).' }),
  },
  { additionalProperties: false },
);

export const Contributors = Type.Object({
  data: Type.Array(
    Type.Object({
      contributor: Type.String(),
      count: Type.Integer(),
      amount: Money('Sum of their receipts, in dollars.'),
      firstDate: NullableDate('First receipt.'),
      lastDate: NullableDate('Latest receipt.'),
    }),
  ),
});

export const CommitteeHistoryQuery = Type.Object(
  {
    person: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Person id: their terms and attendance.' })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Body id: its members’ terms and attendance.' })),
  },
  { additionalProperties: false },
);

const BodyRef = { bodyId: Type.String(), bodyName: Type.String() };

export const CommitteeHistory = Type.Object({
  terms: Type.Array(
    Type.Object({ ...PersonName, ...BodyRef, startDate: NullableDate('First day of the term.'), endDate: NullableDate('Last day of the term.') }),
    { description: 'Committee terms of the Legistar era (starts to 2017, ends 2011–2019), newest first.' },
  ),
  attendance: Type.Array(
    Type.Object({
      ...PersonName,
      ...BodyRef,
      meetings: Type.Integer({ description: 'Confirmed meetings of the committee while the person was on it (2011–2017).' }),
      present: Type.Integer({ description: 'Of those, meetings the person is recorded at.' }),
      firstDate: Type.String({ format: 'date' }),
      lastDate: Type.String({ format: 'date' }),
    }),
  ),
  source: Type.String({ description: 'Where the history comes from.' }),
});

export type PersonRecordOut = Static<typeof PersonRecord>;
export type CommitteeHistoryInput = Static<typeof CommitteeHistoryQuery>;
export type CommitteeHistoryOut = Static<typeof CommitteeHistory>;
export type CouncilCompareInput = Static<typeof CouncilCompareQuery>;
export type CouncilCompareOut = Static<typeof CouncilCompare>;
export type ContributorsInput = Static<typeof ContributorsQuery>;
export type ContributorsOut = Static<typeof Contributors>;
