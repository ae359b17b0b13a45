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
      "Facts are computed, not just retrieved, for: how someone voted on a matter and who voted against it (or for it); whether a matter passed; what passed or failed in a period (of a kind, or about a subject; of a committee, what it recommended to pass); the period's roll calls, the closest of them and the unanimous ones; how many matters were introduced in a period (of a kind, about a subject) and the latest; " +
      "a person's voting record (Yea and Nay counts, with the majority, attendance, agreement with another, who votes most like them) their latest votes on one side and the roll calls they missed, and the council ranked by one of those (who missed the most votes, who voted no the most, on a subject's matters alone when one is named); sponsors, and who sponsored the most; a matter's referral and the committees that acted on it, and when it was introduced; " +
      "committee chairs and memberships, who chairs the most committees, and which committee handles a subject; campaign receipts summed and ranked, and the largest single ones (the record holds no campaign spending, and says so); lobbyists' compensation, clients, contributions and gifts, the officials given the most gifts, and the officials their activity reports name as contacted most; who represents a ward, how many alderpersons serve (listed by ward when asked who they are) and who has served longest (by their terms); when a body meets, its agenda and who testified (residents counted, never named), and how many meetings it held in a period, and which (of every body, or of the committees, when none is named). " +
      "The record holds no amounts for matters (a settlement's or contract's sum is in its attached documents): asked what one cost, the answer says so and names the latest voted on with their documents. " +
      'Common words are searched with the ones titles use ("ban" with "prohibit", "budget" with "appropriation"); when no matter holds enough of the words, the answer says which it left out. ' +
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
