// Schemas of the team's analytics: one chart's figures (what a dashboard widget shows) and the
// scorecard (how each alderperson voted relative to the team's stances).
import { type Static, Type } from 'typebox';
import { Nullable } from '../../kernel/schema.ts';
import { widgetKinds } from './schema.ts';

export const ChartQuery = Type.Object(
  {
    kind: Type.Enum([...widgetKinds], { description: 'The widget kind.' }),
    settings: Type.Object({}, { additionalProperties: true, description: "The kind's settings, as in a dashboard layout's widget." }),
  },
  { additionalProperties: false },
);

export const Chart = Type.Object({
  kind: Type.Enum([...widgetKinds]),
  title: Type.String(),
  /** The axis names of the figures (the table alternative's column heads). */
  head: Type.Array(Type.String(), { minItems: 2, maxItems: 2, description: 'Column heads of the figures: what a bar is, what its value is.' }),
  bars: Type.Array(
    Type.Object({
      label: Type.String(),
      value: Type.Number(),
      text: Type.String({ description: 'The value as shown (dollars, "3 of 4").' }),
      href: Nullable(Type.String({ description: 'The public page of the record the bar is about.' })),
    }),
  ),
  note: Nullable(Type.String({ description: 'What the chart is drawn from, or why it is empty.' })),
});

export const scorecardSorts = ['-agreement', 'agreement', 'name', 'ward', '-against'] as const;
export const ScorecardQuery = Type.Object(
  {
    sort: Type.Optional(
      Type.Enum([...scorecardSorts], {
        description: 'Order of the people: agreement (highest first with `-agreement`, the default), name, ward, or most votes against the team (`-against`).',
      }),
    ),
  },
  { additionalProperties: false },
);

const Stance = Type.Enum(['supports', 'opposes']);
export const Scorecard = Type.Object({
  bills: Type.Array(
    Type.Object({
      recordNumber: Type.String(),
      title: Nullable(Type.String()),
      stance: Stance,
      rollCall: Nullable(
        Type.Object(
          { id: Type.String(), date: Type.String({ format: 'date' }), actionName: Type.String(), result: Nullable(Type.String()) },
          {
            description: 'The latest roll call on the bill, the one scored; null when the bill has none.',
          },
        ),
      ),
      yeas: Type.Integer(),
      nays: Type.Integer(),
      withStance: Type.Integer({ description: 'Votes cast the way the team wants (Yea on a bill it supports, Nay on one it opposes).' }),
      againstStance: Type.Integer({ description: 'Votes cast against the team’s stance.' }),
    }),
  ),
  people: Type.Array(
    Type.Object({
      personId: Type.String(),
      name: Type.String(),
      ward: Nullable(Type.Integer()),
      withStance: Type.Integer(),
      againstStance: Type.Integer(),
      notVoting: Type.Integer({ description: 'Scored roll calls where the person was listed but voted neither Yea nor Nay (absent, present, …).' }),
      agreement: Nullable(Type.Number({ description: 'withStance / (withStance + againstStance), 0–1; null with no Yea or Nay.' })),
      votes: Type.Array(
        Type.Object({
          recordNumber: Type.String(),
          rollCallId: Type.String(),
          value: Type.String(),
          agrees: Nullable(Type.Boolean({ description: 'Null when the vote was neither Yea nor Nay.' })),
        }),
      ),
    }),
  ),
});

export type ChartInput = Static<typeof ChartQuery>;
export type ChartOut = Static<typeof Chart>;
export type ScorecardInput = Static<typeof ScorecardQuery>;
export type ScorecardOut = Static<typeof Scorecard>;
