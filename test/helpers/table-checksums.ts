// Every table of the public schema as a row count and a checksum of its rows, leaving out the
// tables and columns named: how a test says "nothing changed" (the fuzz) or "the same rows" (a
// load completed after a kill, against a clean one).
import { type Kysely, sql } from 'kysely';

export async function tableChecksums(db: Kysely<any>, leaveOut: { tables: ReadonlySet<string>; columns: readonly string[] }): Promise<Map<string, string>> {
  const names = (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
  ).rows.map((r) => r.name);
  // Each row as JSON without the left-out columns, so the order of rows and columns cannot matter.
  const text = leaveOut.columns.reduce((expr, column) => sql`${expr} - ${column}`, sql`to_jsonb(t)`);
  const tables = names.filter((name) => !leaveOut.tables.has(name));
  if (tables.length === 0) return new Map();
  // One statement for every table: the fuzz takes these after each write it sends, and on the
  // embedded database a statement per table made that most of its run.
  const each = tables.map(
    (name) => sql`select ${name}::text as name, count(*)::int as n, md5(coalesce(string_agg((${text})::text, '|' order by (${text})::text), '')) as sum
      from ${sql.table(name)} t`,
  );
  const { rows } = await sql<{ name: string; n: number; sum: string }>`${sql.join(each, sql` union all `)}`.execute(db);
  return new Map(rows.map((r) => [r.name, `${r.n} rows ${r.sum}`]));
}
