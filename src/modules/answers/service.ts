// Answers: a question is read (question.ts), what it names is looked up (resolve.ts), the
// records that answer it are retrieved and composed into sentences that cite them
// (extractive.ts); with a language model configured, the model writes the answer from those
// same records instead (model.ts).
import type { Actor } from '../../kernel/actor.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Retrieval } from '../public-data/index.ts';
import { chicagoDay } from './dates.ts';
import { composeExtractive, NOTHING_FOUND } from './extractive.ts';
import { createModelWriter, type ModelWriter } from './model.ts';
import { understand } from './question.ts';
import { Sources } from './records.ts';
import { resolve } from './resolve.ts';
import { type AnswerInputIn, type AnswerOut, EXTRACTIVE } from './schema.ts';

export function createAnswersService(deps: ModuleDeps, others: { retrieval: Retrieval }) {
  const { baseUrl: aiUrl, model } = deps.config.ai;
  const writer: ModelWriter | null = aiUrl && model ? createModelWriter({ ...deps.config.ai, baseUrl: aiUrl, model }, deps.log) : null;
  return {
    /** With a model, its name; else answers are extractive. */
    model: writer?.model ?? EXTRACTIVE,
    // Answers are about the public record only, so the caller (already admitted with public.ai)
    // changes nothing in what is read.
    async create(_actor: Actor, input: AnswerInputIn): Promise<AnswerOut> {
      const today = chicagoDay(deps.clock.now());
      const q = understand(input.question, today);
      if (q.words.size === 0) throw new AppError('invalid_request', 'The question has no words: ask about the council in plain words.');
      const named = await resolve(q, others.retrieval);
      const sources = new Sources(deps.config.baseUrl);
      const sentences = await composeExtractive({ q, named, retrieval: others.retrieval, sources, today, notes: [] });
      const records = sources.all();
      // Nothing retrieved: there is nothing a model could write from, so the service says so itself
      // (naming what it looked for and did not find, such as an unknown record number).
      if (records.length === 0) return { answer: sentences.length ? sentences.join(' ') : NOTHING_FOUND, citations: [], model: EXTRACTIVE };
      // The model gets the computed facts (sums, tallies, outcomes) with the records, all as data.
      if (writer) return writer.write(q.text, records, sentences);
      return { answer: sentences.join(' '), citations: records.map((r) => r.citation), model: EXTRACTIVE };
    },
  };
}

export type Answers = ReturnType<typeof createAnswersService>;
