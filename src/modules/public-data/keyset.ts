// Keyset pagination over any sort: the cursor carries the last row's sort key and the next page
// starts strictly after it, so inserts never shift or repeat rows across pages.
import { type RawBuilder, sql } from 'kysely';
import { type CursorValue, decodeCursor, type Page, toPage } from './cursor.ts';

export interface SortKey {
  /** The SQL expression sorted on (a column reference or a computed rank). */
  expr: RawBuilder<unknown>;
  dir: 'asc' | 'desc';
  /** Nullable keys sort nulls last in both directions. */
  nullable?: boolean;
  /** Cast for the cursor value so comparisons are typed as the column is. */
  cast: 'date' | 'text' | 'timestamptz' | 'real' | 'integer' | 'numeric';
  /** Name under which the query selects this key, to read it back for the next cursor. */
  alias: string;
}

/** A named sort: its keys end with a unique column so the order is total. */
export interface SortPlan {
  name: string;
  keys: SortKey[];
}

export const col = (ref: string) => sql.ref(ref) as RawBuilder<unknown>;

function value(v: CursorValue, cast: SortKey['cast']): RawBuilder<unknown> {
  return sql`cast(${v} as ${sql.raw(cast)})`;
}

// Lexicographic "strictly after" over the keys, as one boolean expression.
function after(keys: SortKey[], values: CursorValue[], i: number): RawBuilder<boolean> {
  const key = keys[i]!;
  const v = values[i]!;
  const last = i === keys.length - 1;
  if (v === null) {
    // Nulls come last: after a null only other nulls, ordered by the following keys.
    return last ? sql<boolean>`false` : sql<boolean>`(${key.expr} is null and ${after(keys, values, i + 1)})`;
  }
  const op = sql.raw(key.dir === 'desc' ? '<' : '>');
  const strictly = sql<boolean>`${key.expr} ${op} ${value(v, key.cast)}`;
  const tie = last ? sql<boolean>`false` : sql<boolean>`(${key.expr} = ${value(v, key.cast)} and ${after(keys, values, i + 1)})`;
  const nulls = key.nullable ? sql<boolean>` or ${key.expr} is null` : sql``;
  return sql<boolean>`(${strictly} or ${tie}${nulls})`;
}

/** Where-clause for the page after `cursor`, or null on the first page. */
export function keysetCondition(plan: SortPlan, cursor: string | undefined): RawBuilder<boolean> | null {
  if (cursor === undefined) return null;
  const values = decodeCursor(cursor, plan.name, plan.keys.length);
  const first = plan.keys[0]!;
  const v0 = values[0]!;
  const rest = after(plan.keys, values, 0);
  // A plain range bound on the leading key lets PostgreSQL start the index scan at the cursor.
  if (!first.nullable && v0 !== null) {
    const op = sql.raw(first.dir === 'desc' ? '<=' : '>=');
    return sql<boolean>`(${first.expr} ${op} ${value(v0, first.cast)} and ${rest})`;
  }
  return rest;
}

export function orderBy(plan: SortPlan): RawBuilder<unknown> {
  return sql.join(
    plan.keys.map((k) => sql`${k.expr} ${sql.raw(k.dir)}${sql.raw(k.nullable ? ' nulls last' : '')}`),
    sql`, `,
  );
}

function keyValue(v: unknown): CursorValue {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number' || typeof v === 'string') return v;
  return String(v);
}

/** Applies the keyset and order to a query, fetches one extra row and cuts the page. */
export async function paginate<R extends Record<string, unknown>, T>(
  qb: any,
  plan: SortPlan,
  input: { limit: number; cursor?: string | undefined },
  present: (row: R) => T,
): Promise<Page<T>> {
  const cond = keysetCondition(plan, input.cursor);
  let q = cond ? qb.where(cond) : qb;
  q = q.orderBy(orderBy(plan)).limit(input.limit + 1);
  const rows = (await q.execute()) as R[];
  return toPage(rows, input.limit, plan.name, (row) => plan.keys.map((k) => keyValue(row[k.alias])), present);
}
