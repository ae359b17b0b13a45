// Plain-SQL, forward-only migrations from migrations/NNNN_<module>_<change>.sql. Each file runs in
// its own transaction; a session advisory lock makes two instances starting at once take turns,
// and the second finds nothing left to do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import type { Database } from './db.ts';
import { lockIds, withStartupLock } from './locks.ts';

export const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

export function listMigrations(dir = migrationsDir): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_-]+\.sql$/.test(f))
    .sort();
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export async function migrate(database: Database<any>, dir = migrationsDir): Promise<MigrationResult> {
  const files = listMigrations(dir);
  return withStartupLock(database, lockIds.migrations, async (exec) => {
    await exec(`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = new Set((await sql<{ name: string }>`select name from schema_migrations`.execute(database.db)).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const text = readFileSync(join(dir, file), 'utf8');
      // One transaction per file: a failing migration leaves nothing behind.
      await exec(`begin;\n${text}\n;\ninsert into schema_migrations (name) values (${quote(file)}) on conflict do nothing;\ncommit;`).catch(
        async (err: unknown) => {
          await exec('rollback').catch(() => {});
          throw new Error(`migration ${file} failed: ${(err as Error).message}`);
        },
      );
      applied.push(file);
    }
    return { applied, alreadyApplied: done.size };
  });
}

/** How many of `known` (by default every migration this code knows) the database holds: `/ready` wants all. */
export async function appliedMigrationCount(db: Kysely<any>, known = listMigrations()): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from schema_migrations where name = any(${known})`.execute(db);
  return rows[0]?.n ?? 0;
}
