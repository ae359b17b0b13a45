// A public person's record as the website summarises it, and a committee's largest contributors.
import { type Static, Type } from 'typebox';
import { Money, NullableDate } from './schema-common.ts';

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
    decided: Type.Integer({ description: 'Yea or Nay votes on roll calls whose yeas and nays were not tied.' }),
    withMajority: Type.Integer({ description: 'Of those, votes on the side of the majority.' }),
    alignment: Type.Union([Type.Number(), Type.Null()], { description: 'withMajority / decided (0–1); null when nothing was decided.' }),
    firstDate: NullableDate('First roll call.'),
    lastDate: NullableDate('Latest roll call.'),
  }),
  sponsored: Type.Array(Type.Object({ status: Type.String(), count: Type.Integer() }), {
    description: 'Matters the person sponsored or co-sponsored, counted by their current status.',
  }),
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

export type PersonRecordOut = Static<typeof PersonRecord>;
export type ContributorsInput = Static<typeof ContributorsQuery>;
export type ContributorsOut = Static<typeof Contributors>;
