// `npm run fuzz`: the whole generated fuzz (test/fuzz) — FUZZ_COUNT requests (default 10,000) for
// FUZZ_SEED (default the committed seed of the suite's slice, 20261126), on the embedded database
// or DATABASE_URL. Prints the status counts; exits 1 with every violation listed.
import { runFuzz } from '../test/fuzz/run.ts';

const seed = Number(process.env.FUZZ_SEED ?? 20261126);
const count = Number(process.env.FUZZ_COUNT ?? 10_000);
const started = Date.now();
const result = await runFuzz({ seed, count, progress: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(
  `${JSON.stringify({ seed, sent: result.sent, statuses: result.statuses, violations: result.violations.length, seconds: (Date.now() - started) / 1000 })}\n`,
);
for (const v of result.violations) process.stdout.write(`${v}\n`);
process.exit(result.violations.length ? 1 : 0);
