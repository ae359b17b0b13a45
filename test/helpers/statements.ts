// The SQL a test instance sends: for tests that count statements (a nested read in one round trip,
// a kept answer that runs none).
import type { TestContext } from './context.ts';

/** Runs `run` while recording the SQL text of every statement the instance sends to the database. */
export async function recordingStatements<T>(t: TestContext, run: (statements: string[]) => Promise<T>): Promise<T> {
  const executor = t.ctx.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, o?: unknown) => Promise<unknown> };
  const original = executor.executeQuery;
  const statements: string[] = [];
  executor.executeQuery = function (this: unknown, q, o) {
    statements.push(q.sql);
    return original.call(this, q, o);
  };
  try {
    return await run(statements);
  } finally {
    executor.executeQuery = original;
  }
}
