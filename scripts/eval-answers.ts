// `npm run eval:answers`: asks every question of the answers evaluation
// (test/modules/answers/eval/questions.ts) over the bundled sample, in-process on a fresh test
// database (the embedded one, or DATABASE_URL's server), and prints the scores beside the committed
// baseline (test/modules/answers/eval/baseline.json). `--verbose` shows every answer that lost
// points; `--write-baseline` records the scores as the new baseline. Exits 1 when a score is below
// the baseline.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { questions } from '../test/modules/answers/eval/questions.ts';
import { evaluate, type Report, sampleContext, type Scores } from '../test/modules/answers/eval/score.ts';

const baselineFile = fileURLToPath(new URL('../test/modules/answers/eval/baseline.json', import.meta.url));
const verbose = process.argv.includes('--verbose');
const write = process.argv.includes('--write-baseline');

const t = await sampleContext();
let report: Report;
try {
  report = await evaluate(t.ctx, questions);
} finally {
  await t.close();
}
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as { scores: Scores };
if (verbose) {
  for (const r of report.results) {
    if (r.precision === 1 && r.recall === 1 && r.facts === 1 && r.noAnswer !== false) continue;
    console.log(`\n? ${r.q}  [${r.intent}]\n  ${r.answer}`);
    if (r.missingFacts.length) console.log(`  missing facts: ${r.missingFacts.join(' | ')}`);
    if (r.missingCites.length) console.log(`  missing citations: ${r.missingCites.join(', ')}`);
    if (r.extraCites.length) console.log(`  unexpected citations: ${r.extraCites.join(', ')}`);
  }
}
console.log(`\n${report.questions} questions`);
const below: string[] = [];
for (const [name, score] of Object.entries(report.scores)) {
  const was = baseline.scores[name as keyof Scores];
  if (score < was) below.push(name);
  console.log(`${name.padEnd(10)} ${score.toFixed(3)}  (baseline ${was.toFixed(3)})`);
}
console.log('\nby intent:');
for (const [intent, s] of Object.entries(report.byIntent)) console.log(`  ${intent.padEnd(16)} ${s.overall.toFixed(3)}  (${s.questions})`);
if (write) {
  writeFileSync(baselineFile, `${JSON.stringify({ questions: report.questions, scores: report.scores, byIntent: report.byIntent }, null, 2)}\n`);
  console.log(`\nbaseline written: ${baselineFile}`);
} else if (below.length) {
  console.log(`\nbelow the baseline: ${below.join(', ')}`);
  process.exitCode = 1;
}
