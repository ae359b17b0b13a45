// The evaluation of answers over the bundled sample: every question of ./questions.ts is asked of
// the answers service in-process (one database, the sample loaded, today fixed), and each answer
// is scored for its citations (precision: cited records the question expects or allows; recall:
// expected records cited), the facts it states (numbers, names, outcomes), and "no answer" (a
// question the record cannot answer cites nothing). `npm run eval:answers` prints the report;
// test/modules/answers/eval.test.ts fails when a score falls below ./baseline.json.
import { ManualClock } from '../../../../src/kernel/clock.ts';
import { visitor } from '../../../../src/kernel/actor.ts';
import type { AppContext } from '../../../../src/context.ts';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import type { EvalCase } from './questions.ts';

/** The day the questions are asked (Chicago): "last meeting", "this year" read the same on every run. */
export const EVAL_NOW = '2026-11-20T18:00:00Z';

export interface CaseResult {
  q: string;
  intent: string;
  answer: string;
  cited: string[];
  precision: number;
  recall: number;
  facts: number;
  missingFacts: string[];
  missingCites: string[];
  extraCites: string[];
  /** For a question the record cannot answer: whether the answer cited nothing. */
  noAnswer: boolean | null;
}

export interface Scores {
  /** Mean share of cited records that the question expects or allows (answerable questions). */
  precision: number;
  /** Mean share of expected records that are cited (answerable questions). */
  recall: number;
  /** Mean share of expected facts stated (every question with facts). */
  facts: number;
  /** Share of unanswerable questions answered with no citation. */
  noAnswer: number;
  /** The mean of the four. */
  overall: number;
}

export interface Report {
  questions: number;
  scores: Scores;
  byIntent: Record<string, { questions: number; overall: number }>;
  results: CaseResult[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1);

/** Whether a citation key matches an expected key or a pattern (`person:*`: any person). */
const matches = (key: string, pattern: string) => (pattern.endsWith(':*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern);

const stated = (answer: string, fact: string | RegExp) => (typeof fact === 'string' ? answer.toLowerCase().includes(fact.toLowerCase()) : fact.test(answer));

export function scoreCase(c: EvalCase, answer: string, cited: string[]): CaseResult {
  const allowed = [...c.cites, ...(c.may ?? [])];
  const extra = cited.filter((k) => !allowed.some((p) => matches(k, p)));
  const missingCites = c.cites.filter((k) => !cited.includes(k));
  const missingFacts = c.facts.filter((f) => !stated(answer, f)).map(String);
  const none = c.none === true;
  return {
    q: c.q,
    intent: c.intent,
    answer,
    cited,
    precision: cited.length ? (cited.length - extra.length) / cited.length : none || c.cites.length === 0 ? 1 : 0,
    recall: c.cites.length ? (c.cites.length - missingCites.length) / c.cites.length : 1,
    facts: c.facts.length ? (c.facts.length - missingFacts.length) / c.facts.length : 1,
    missingFacts,
    missingCites,
    extraCites: extra,
    noAnswer: none ? cited.length === 0 : null,
  };
}

export function summarize(results: CaseResult[]): Report {
  const answerable = results.filter((r) => r.noAnswer === null);
  const unanswerable = results.filter((r) => r.noAnswer !== null);
  const overallOf = (rs: CaseResult[]) =>
    mean(rs.map((r) => (r.noAnswer === null ? (r.precision + r.recall + r.facts) / 3 : ((r.noAnswer ? 1 : 0) + r.facts) / 2)));
  const scores = {
    precision: round(mean(answerable.map((r) => r.precision))),
    recall: round(mean(answerable.map((r) => r.recall))),
    facts: round(mean(results.map((r) => r.facts))),
    noAnswer: round(mean(unanswerable.map((r) => (r.noAnswer ? 1 : 0)))),
    overall: 0,
  };
  scores.overall = round((scores.precision + scores.recall + scores.facts + scores.noAnswer) / 4);
  const byIntent: Report['byIntent'] = {};
  for (const intent of new Set(results.map((r) => r.intent))) {
    const rs = results.filter((r) => r.intent === intent);
    byIntent[intent] = { questions: rs.length, overall: round(overallOf(rs)) };
  }
  return { questions: results.length, scores, byIntent, results };
}

/** Asks every question of the answers service (as the API does, for a visitor) and scores the answers. */
export async function evaluate(ctx: AppContext, cases: readonly EvalCase[]): Promise<Report> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const out = await ctx.services.answers.create(visitor, { question: c.q });
    results.push(
      scoreCase(
        c,
        out.answer,
        out.citations.map((x) => `${x.type}:${x.id}`),
      ),
    );
  }
  return summarize(results);
}

/** A test database with the bundled sample loaded and the clock at EVAL_NOW. */
export async function sampleContext(): Promise<TestContext> {
  const t = await startTestContext({ clock: new ManualClock(EVAL_NOW) });
  await t.ctx.services.ingest.loadSampleIfEmpty(() => {});
  return t;
}
