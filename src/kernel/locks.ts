// Cluster-wide mutual exclusion for start-up work (migrations, the first sample load): a
// PostgreSQL session advisory lock held on one dedicated session while `fn` runs, so several
// instances starting at once on one database take turns.
import type { Database } from './db.ts';

export const lockIds = {
  migrations: 72624401,
  sampleLoad: 72624402,
} as const;

export async function withStartupLock<T>(database: Database<any>, lockId: number, fn: (exec: (script: string) => Promise<void>) => Promise<T>): Promise<T> {
  return database.session(async (exec) => {
    await exec(`select pg_advisory_lock(${Number(lockId)})`);
    try {
      return await fn(exec);
    } finally {
      await exec(`select pg_advisory_unlock(${Number(lockId)})`);
    }
  });
}
