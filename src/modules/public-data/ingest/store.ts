// Idempotent writes shared by every adapter. A record is compared with what is stored before it
// is written: `updated_at` moves only on a real change, `first_seen_at` is kept, `last_synced_at`
// always moves. Child sets (sponsors, actions, votes, …) are replaced only when they differ, and
// a changed child set counts as a change of its parent.
import { setImmediate as turn } from 'node:timers/promises';
import { type Kysely, type RawBuilder, sql } from 'kysely';

// Dynamic table names make Kysely's typed builder useless here; the SQL below is plain.
export type Db = Kysely<any>;
export type Row = Record<string, unknown>;

/** Rows per INSERT: well below PostgreSQL's 65,535 bind parameters for our widest table. */
export const BATCH = 400;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function values(rows: Row[], columns: string[]): RawBuilder<unknown> {
  return sql.join(rows.map((r) => sql`(${sql.join(columns.map((c) => r[c] ?? null))})`));
}

/**
 * Inserts or updates `rows` (all with the same keys, `id` first among them) and returns the ids
 * that were new or changed. Only columns listed in the rows are written.
 */
export async function upsertRows(db: Db, table: string, rows: Row[], key = 'id'): Promise<Set<string>> {
  const changed = new Set<string>();
  if (rows.length === 0) return changed;
  const columns = Object.keys(rows[0]!);
  const content = columns.filter((c) => c !== key);
  const t = sql.table(table);
  const old = sql.join(content.map((c) => sql`${t}.${sql.ref(c)}`));
  const neu = sql.join(content.map((c) => sql`excluded.${sql.ref(c)}`));
  const assignments = sql.join(content.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`));
  for (const batch of chunks(rows, BATCH)) {
    // now() is the transaction's start, so `updated_at = now()` afterwards means "written now".
    const result = await sql<{ id: string; changed: boolean }>`
      insert into ${t} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${values(batch, columns)}
      on conflict (${sql.ref(key)}) do update set ${assignments},
        last_synced_at = now(),
        updated_at = case when row(${old}) is distinct from row(${neu}) then now() else ${t}.updated_at end
      returning ${sql.ref(key)} as id, (updated_at = now()) as changed`.execute(db);
    for (const r of result.rows) if (r.changed) changed.add(String(r.id));
    // The embedded database answers a query without returning to the event loop: give the
    // service's requests their turn between batches (it serves while the sample loads).
    await turn();
  }
  return changed;
}

/** Inserts rows that are not there yet (append-only link tables); returns how many were new. */
export async function insertMissing(db: Db, table: string, rows: Row[]): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Object.keys(rows[0]!);
  let inserted = 0;
  for (const batch of chunks(rows, BATCH)) {
    const result = await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      values ${values(batch, columns)} on conflict do nothing`.execute(db);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}

function canonical(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Makes the child rows of each parent in `parentIds` equal to `rows` (grouped by `parentColumn`),
 * comparing first; returns the parents whose children changed. `columns` is what is compared
 * and written (columns with database defaults such as votes.updated_at are left out).
 */
export async function replaceChildren(db: Db, table: string, parentColumn: string, parentIds: string[], rows: Row[], columns: string[]): Promise<Set<string>> {
  const changed = new Set<string>();
  if (parentIds.length === 0) return changed;
  const signature = (list: Row[]) =>
    list
      .map((r) => columns.map((c) => canonical(r[c])).join('\u0001'))
      .sort()
      .join('\u0002');
  const wanted = new Map<string, Row[]>(parentIds.map((id) => [id, []]));
  for (const r of rows) wanted.get(String(r[parentColumn]))?.push(r);
  const stored = new Map<string, Row[]>(parentIds.map((id) => [id, []]));
  for (const ids of chunks(parentIds, 1000)) {
    const result = await sql<Row>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
      where ${sql.ref(parentColumn)} in (${sql.join(ids)})`.execute(db);
    for (const r of result.rows) stored.get(String(r[parentColumn]))?.push(r);
  }
  for (const id of parentIds) if (signature(wanted.get(id)!) !== signature(stored.get(id)!)) changed.add(id);
  if (changed.size === 0) return changed;
  const ids = [...changed];
  for (const part of chunks(ids, 1000)) {
    await sql`delete from ${sql.table(table)} where ${sql.ref(parentColumn)} in (${sql.join(part)})`.execute(db);
  }
  const fresh = ids.flatMap((id) => wanted.get(id)!).map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  for (const batch of chunks(fresh, BATCH)) {
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${values(batch, columns)}`.execute(db);
    await turn();
  }
  return changed;
}

/** Marks parents whose children changed as updated (their own row may have been unchanged). */
export async function touch(db: Db, table: string, ids: Iterable<string>): Promise<void> {
  const list = [...ids];
  for (const part of chunks(list, 1000)) {
    await sql`update ${sql.table(table)} set updated_at = now() where id in (${sql.join(part)}) and updated_at <> now()`.execute(db);
  }
}

export { chunks };
