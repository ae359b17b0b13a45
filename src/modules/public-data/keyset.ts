// Keyset pagination over any sort: the cursor carries the last row's sort key and the next page
// starts strictly after it, so inserts never shift or repeat rows across pages.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { AppError } from '../../kernel/errors.ts';
import { MAX_PAGE } from '../../kernel/schema.ts';
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

/** A calendar date PostgreSQL and JavaScript read alike (no 2023-02-30, no year 99999). */
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/**
 * What a cursor's key may hold for each kind of sort key: a tampered cursor (a number in a date
 * slot, 1e308 in a rank) is refused as malformed before it reaches SQL, never cast there.
 */
const fits: Record<SortKey['cast'], (v: string | number) => boolean> = {
  date: (v) => typeof v === 'string' && isDate(v),
  timestamptz: (v) => typeof v === 'string' && v.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(v) && isDate(v.slice(0, 10)) && Number.isFinite(Date.parse(v)),
  text: (v) => typeof v === 'string' && v.length <= 1000,
  integer: (v) => typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) <= 2_147_483_647,
  // PostgreSQL's real holds about ±3.4e38; ranks are far smaller.
  real: (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 1e30,
  numeric: (v) => (typeof v === 'string' ? /^-?\d{1,20}(\.\d{1,10})?$/.test(v) : Number.isFinite(v) && Math.abs(v) < 1e20),
};

/** Refuses a cursor whose values do not fit the keys they stand for (400). */
export function checkCursorKeys(keys: readonly Pick<SortKey, 'cast' | 'nullable'>[], values: CursorValue[]): void {
  keys.forEach((key, i) => {
    const v = values[i]!;
    if (v === null ? !key.nullable : !fits[key.cast](v)) {
      throw new AppError('invalid_request', 'The cursor is malformed; pass meta.nextCursor from the previous page unchanged.');
    }
  });
}

/** Where-clause for the page after `cursor`, or null on the first page. */
export function keysetCondition(plan: SortPlan, cursor: string | undefined): RawBuilder<boolean> | null {
  if (cursor === undefined) return null;
  const values = decodeCursor(cursor, plan.name, plan.keys.length);
  checkCursorKeys(plan.keys, values);
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

/** A page size written into the SQL text: a positive integer (the schemas allow 1 to MAX_PAGE; internal readers may ask more), never anything else. */
function pageSize(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_request', `limit must be an integer from 1 to ${MAX_PAGE}.`);
  return limit;
}

/**
 * Applies the keyset and order to a query, fetches one extra row and cuts the page; `around`
 * reads the page's rows through an outer query (aliased as the inner one, so the order applies).
 */
export async function paginate<R extends Record<string, unknown>, T>(
  qb: any,
  plan: SortPlan,
  input: { limit: number; cursor?: string | undefined },
  present: (row: R) => T,
  around?: (paged: any) => any,
): Promise<Page<T>> {
  const cond = keysetCondition(plan, input.cursor);
  let q = cond ? qb.where(cond) : qb;
  // The page size is part of the text (a checked integer): a prepared
  // statement's generic plan then knows it, as a custom plan would.
  q = q.orderBy(orderBy(plan)).limit(sql.lit(pageSize(input.limit) + 1));
  // Read through an outer query over the page's rows (joins only they need), in the same order.
  if (around) q = around(q).orderBy(orderBy(plan));
  const rows = (await q.execute()) as R[];
  return toPage(rows, input.limit, plan.name, (row) => plan.keys.map((k) => keyValue(row[k.alias])), present);
}

/**
 * One page per parent, in one query: the list query built for a parent (its filter compares with
 * `parent`, a reference to the parent's id) runs once per id through a lateral join, with the same
 * keyset, order and `limit + 1` as `paginate`. Each parent's page and cursor are exactly those of
 * the list filtered by that parent alone, so a cursor continues either. Pages come in `ids` order.
 */
export async function paginateEach<R extends Record<string, unknown>, T>(
  db: Kysely<any>,
  ids: readonly string[],
  build: (parent: RawBuilder<string>) => any,
  plan: SortPlan,
  input: { limit: number; cursor?: string | undefined },
  present: (row: R) => T,
  around?: (paged: any) => any,
): Promise<Page<T>[]> {
  if (ids.length === 0) return [];
  const cond = keysetCondition(plan, input.cursor);
  let inner = build(sql<string>`k.parent`);
  if (cond) inner = inner.where(cond);
  inner = inner.orderBy(orderBy(plan)).limit(input.limit + 1);
  if (around) inner = around(inner).orderBy(orderBy(plan));
  const parents = sql.join(ids.map((id) => sql`(${id})`));
  const { rows } = await sql<
    R & { __parent: string }
  >`select k.parent as __parent, x.* from (values ${parents}) as k(parent) cross join lateral (${inner}) x`.execute(db);
  const byParent = new Map<string, R[]>(ids.map((id) => [id, []]));
  for (const row of rows) byParent.get(row.__parent)?.push(row);
  return ids.map((id) => toPage(byParent.get(id)!, input.limit, plan.name, (row) => plan.keys.map((k) => keyValue(row[k.alias])), present));
}
