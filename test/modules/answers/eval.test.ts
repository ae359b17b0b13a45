// The answers evaluation as a test: the questions of ./eval/questions.ts asked in-process over one
// database with the bundled sample, scored as `npm run eval:answers` scores them; a score below the
// committed baseline (./eval/baseline.json) fails, naming the questions that lost points.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { TestContext } from '../../helpers/context.ts';
import { questions } from './eval/questions.ts';
import { evaluate, sampleContext, type Scores } from './eval/score.ts';

let t: TestContext;
before(async () => {
  t = await sampleContext();
});
after(async () => {
  await t.close();
});

const baseline = JSON.parse(readFileSync(new URL('./eval/baseline.json', import.meta.url), 'utf8')) as { questions: number; scores: Scores };

test('the evaluation has at least 60 questions over every intent, each with what it must cite or state', () => {
  assert.ok(questions.length >= 60, `${questions.length} questions`);
  assert.equal(new Set(questions.map((q) => q.q)).size, questions.length, 'no question twice');
  for (const intent of ['outcome', 'who-voted', 'vote-aggregate', 'sponsor', 'meeting', 'chair', 'money', 'lobbying', 'no-answer'])
    assert.ok(questions.filter((q) => q.intent === intent).length >= 2, intent);
  for (const q of questions) assert.ok(q.none || q.cites.length || q.facts.length, q.q);
});

test('answers score no lower than the committed baseline', async () => {
  const report = await evaluate(t.ctx, questions);
  const lost = report.results
    .filter((r) => r.precision < 1 || r.recall < 1 || r.facts < 1 || r.noAnswer === false)
    .map((r) => `${r.q} → ${[...r.missingFacts, ...r.missingCites, ...r.extraCites.map((x) => `+${x}`)].join(', ')}`);
  for (const [name, score] of Object.entries(report.scores)) {
    const was = baseline.scores[name as keyof Scores];
    assert.ok(score >= was, `${name} ${score} is below the baseline ${was}. Questions losing points:\n${lost.join('\n')}`);
  }
});
