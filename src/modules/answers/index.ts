// Answers that cite the record: what the catalogue, the services and other modules may use.
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Retrieval } from '../public-data/index.ts';
import { type Answers, createAnswersService } from './service.ts';

export type { Answers };
export { EXTRACTIVE, type AnswerOut, type Citation } from './schema.ts';
export { NOTHING_FOUND } from './extractive.ts';

export function createAnswers(deps: ModuleDeps, others: { retrieval: Retrieval }): Answers {
  return createAnswersService(deps, others);
}
