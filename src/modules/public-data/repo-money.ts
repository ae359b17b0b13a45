// Campaign committees, their receipts and expenditures, and totals by period.
import { sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { type Db, updatedSince } from './repo-sql.ts';

export interface Owner {
  committee?: string | undefined;
  person?: string | undefined;
  ward?: number | undefined;
}

const committeeColumns = ['c.id', 'c.name', 'c.isbe_id', 'c.person_id', 'p.name as person_name', 'c.ward', 'c.source_url', 'c.updated_at'] as const;

export const committeeSortPlan = (sort: string): SortPlan => {
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const id = { expr: col('c.id'), dir: 'asc', cast: 'text', alias: 'id' } as const;
  if (sort === 'ward' || sort === '-ward') return { name: sort, keys: [{ expr: col('c.ward'), dir, nullable: true, cast: 'integer', alias: 'ward' }, id] };
  return { name: dir === 'desc' ? '-name' : 'name', keys: [{ expr: col('c.name'), dir, cast: 'text', alias: 'name' }, id] };
};

function byOwner(qb: any, o: Owner): any {
  if (o.committee !== undefined) qb = qb.where('c.id', '=', o.committee);
  if (o.person !== undefined) qb = qb.where('c.person_id', '=', o.person);
  if (o.ward !== undefined) qb = qb.where('c.ward', '=', o.ward);
  return qb;
}

export function committeeListQuery(db: Db, f: Owner & { updatedSince?: string | undefined }) {
  const qb = db
    .selectFrom('committees as c')
    .leftJoin('people as p', 'p.id', 'c.person_id')
    .select([...committeeColumns]);
  return updatedSince(byOwner(qb, f), 'c.updated_at', f.updatedSince);
}

export async function committeeDetail(db: Db, id: string) {
  return db
    .selectFrom('committees as c')
    .leftJoin('people as p', 'p.id', 'c.person_id')
    .select([...committeeColumns])
    .select([
      sql<string>`(select json_build_object('count', count(*), 'amount', coalesce(sum(x.amount), 0)::numeric(14, 2)::text, 'firstDate', min(x.received_date),
        'lastDate', max(x.received_date)) from receipts x where x.committee_id = c.id)`.as('receipts'),
      sql<string>`(select json_build_object('count', count(*), 'amount', coalesce(sum(x.amount), 0)::numeric(14, 2)::text, 'firstDate', min(x.expended_date),
        'lastDate', max(x.expended_date)) from expenditures x where x.committee_id = c.id)`.as('expenditures'),
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

export const moneySortPlan = (sort: string, table: 'x'): SortPlan => {
  const dir = sort.startsWith('-') || sort === '' ? 'desc' : 'asc';
  const id = { expr: col(`${table}.id`), dir: 'asc', cast: 'text', alias: 'id' } as const;
  if (sort === 'amount' || sort === '-amount') return { name: sort, keys: [{ expr: col(`${table}.amount`), dir, cast: 'numeric', alias: 'amount' }, id] };
  return { name: dir === 'desc' ? '-date' : 'date', keys: [{ expr: col(`${table}.date`), dir, cast: 'date', alias: 'date' }, id] };
};

export interface MoneyFilters extends Owner {
  from?: string | undefined;
  to?: string | undefined;
  updatedSince?: string | undefined;
}

export function receiptListQuery(db: Db, f: MoneyFilters) {
  let qb: any = db
    .selectFrom(
      db
        .selectFrom('receipts as r')
        .select([
          'r.id',
          'r.committee_id',
          'r.received_date as date',
          'r.amount',
          'r.contributor',
          'r.contributor_type',
          'r.occupation',
          'r.employer',
          'r.city',
          'r.state',
          'r.zip',
          'r.source_url',
          'r.updated_at',
        ])
        .as('x'),
    )
    .selectAll('x');
  qb = ownerAndDates(db, qb, f);
  return updatedSince(qb, 'x.updated_at', f.updatedSince);
}

export function expenditureListQuery(db: Db, f: MoneyFilters) {
  let qb: any = db
    .selectFrom(
      db
        .selectFrom('expenditures as e')
        .select([
          'e.id',
          'e.committee_id',
          'e.expended_date as date',
          'e.amount',
          'e.payee',
          'e.purpose',
          'e.city',
          'e.state',
          'e.zip',
          'e.source_url',
          'e.updated_at',
        ])
        .as('x'),
    )
    .selectAll('x');
  qb = ownerAndDates(db, qb, f);
  return updatedSince(qb, 'x.updated_at', f.updatedSince);
}

function ownerAndDates(db: Db, qb: any, f: MoneyFilters): any {
  if (f.committee !== undefined || f.person !== undefined || f.ward !== undefined) {
    qb = qb.where('x.committee_id', 'in', byOwner(db.selectFrom('committees as c').select('c.id'), f));
  }
  if (f.from !== undefined) qb = qb.where('x.date', '>=', f.from);
  if (f.to !== undefined) qb = qb.where('x.date', '<=', f.to);
  return qb;
}

export interface TotalsRow {
  start: string;
  receipts_count: number;
  receipts_amount: string;
  expenditures_count: number;
  expenditures_amount: string;
}

/** Sums per month, quarter or year over the chosen committees. */
export async function totals(db: Db, f: MoneyFilters, period: 'month' | 'quarter' | 'year'): Promise<TotalsRow[]> {
  const committees = byOwner(db.selectFrom('committees as c').select('c.id'), f);
  const filtered = f.committee !== undefined || f.person !== undefined || f.ward !== undefined;
  const part = (table: 'receipts' | 'expenditures', dateCol: string) => {
    let q: any = db
      .selectFrom(`${table} as x` as 'receipts as x')
      .select([
        sql<string>`date_trunc(${period}, ${sql.ref(`x.${dateCol}`)})::date`.as('start'),
        sql<number>`count(*)`.as('n'),
        sql<string>`sum(x.amount)`.as('amount'),
      ])
      .groupBy(sql`1`);
    if (filtered) q = q.where('x.committee_id', 'in', committees);
    if (f.from !== undefined) q = q.where(sql.ref(`x.${dateCol}`), '>=', f.from);
    if (f.to !== undefined) q = q.where(sql.ref(`x.${dateCol}`), '<=', f.to);
    return q;
  };
  const rows = await sql<TotalsRow>`
    with r as (${part('receipts', 'received_date')}), e as (${part('expenditures', 'expended_date')})
    select coalesce(r.start, e.start) as start,
      coalesce(r.n, 0) as receipts_count, coalesce(r.amount, 0)::numeric(14, 2) as receipts_amount,
      coalesce(e.n, 0) as expenditures_count, coalesce(e.amount, 0)::numeric(14, 2) as expenditures_amount
    from r full join e on e.start = r.start order by 1`.execute(db);
  return rows.rows;
}
