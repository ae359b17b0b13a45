// The answers operation: what POST /api/v1/answers and /api/v2/answers, the GraphQL field
// `answer(question)`, the MCP tool `answer_question` and the A2A agent all perform.
import { operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import { Answer, AnswerInput } from './schema.ts';
import type { Answers } from './service.ts';

const op = operationsOf<Answers>();

export const answersOperations = {
  'answers.create': op({
    summary: 'An answer to a question about the public record, citing every record it rests on',
    description:
      'Retrieves the records that bear on the question (matters, roll calls and votes, meetings with their agenda and public testimony, people, committees, campaign money, lobbying) and answers from them alone. ' +
      'Each citation links to the record\'s public web page. Without a language model the answer is built from the records (`model` is "extractive"); a question with nothing relevant says so and cites nothing. ' +
      "Uses one of the day's AI answers (X-AI-Calls-Remaining); a replay of the same Idempotency-Key, a refused question or a model that fails (502 upstream_unavailable) uses none.",
    tags: ['answers'],
    input: AnswerInput,
    output: Answer,
    access: access.open('public.ai'),
    limit: 'ai',
    effect: 'write',
    waitsOnModel: true,
    run: (svc, actor, input) => svc.create(actor, input),
  }),
};
