// The answers operation's input and output (decisions.md "Answers"): a question in, an answer
// with the records it rests on out.
import { type Static, Type } from 'typebox';

export const MAX_QUESTION = 2000;

export const citationTypes = ['matter', 'meeting', 'person', 'body', 'roll_call', 'committee', 'lobbyist', 'lobbying_client', 'lobbying_employer'] as const;
export type CitationType = (typeof citationTypes)[number];

export const AnswerInput = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: MAX_QUESTION,
      description: `A question about the council's public record, in plain words (at most ${MAX_QUESTION} characters), e.g. "How did Ald. Hopkins vote on SO2026-0025407?"`,
    }),
  },
  { additionalProperties: false },
);

export const Citation = Type.Object({
  type: Type.Enum([...citationTypes], { description: 'Kind of record.' }),
  id: Type.String({ description: 'Its id in this API (a record number for a matter).' }),
  title: Type.String(),
  url: Type.String({ description: "The record's public web page." }),
});

export const Answer = Type.Object({
  answer: Type.String({ description: 'The answer, written only from the records cited.' }),
  citations: Type.Array(Citation, { description: 'Every record the answer rests on; empty when nothing relevant was found.' }),
  model: Type.String({ description: '"extractive" when sentences were built from the records without a language model; else the model that wrote it.' }),
});

export type AnswerInputIn = Static<typeof AnswerInput>;
export type Citation = Static<typeof Citation>;
export type AnswerOut = Static<typeof Answer>;

/** The `model` of an answer built from the records without a language model. */
export const EXTRACTIVE = 'extractive';
