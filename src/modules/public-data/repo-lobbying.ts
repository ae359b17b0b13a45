// Lobbyists (people of kind 'lobbyist'), clients, employers and their disclosures.
import { sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { type Db, tsQuery, updatedSince } from './repo-sql.ts';

export const nameSortPlan = (sort: string, ref: string, idRef: string): SortPlan => {
  const desc = sort === '-name';
  return {
    name: desc ? '-name' : 'name',
    keys: [
      { expr: col(ref), dir: desc ? 'desc' : 'asc', cast: 'text', alias: 'sort_key' },
      { expr: col(idRef), dir: 'asc', cast: 'text', alias: 'id' },
    ],
  };
};

export function lobbyistListQuery(db: Db, f: { client?: string; employer?: string; q?: string; updatedSince?: string }) {
  let qb: any = db
    .selectFrom('people as p')
    .select(['p.id', 'p.name', 'p.sort_name', 'p.sort_name as sort_key', 'p.organization', 'p.current', 'p.source_url', 'p.updated_at'])
    .where('p.kind', '=', 'lobbyist');
  if (f.client !== undefined) qb = qb.where('p.id', 'in', db.selectFrom('lobbying_engagements').select('lobbyist_id').where('client_id', '=', f.client));
  if (f.employer !== undefined) qb = qb.where('p.id', 'in', db.selectFrom('lobbying_engagements').select('lobbyist_id').where('employer_id', '=', f.employer));
  if (f.q !== undefined) qb = qb.where(sql<boolean>`p.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'p.updated_at', f.updatedSince);
}

const engagementJson = (where: ReturnType<typeof sql>) => sql<unknown[]>`coalesce((select json_agg(json_build_object(
    'lobbyistId', e.lobbyist_id, 'lobbyistName', l.name, 'employerId', e.employer_id, 'employerName', em.name,
    'clientId', e.client_id, 'clientName', cl.name, 'year', e.year) order by e.year desc, l.sort_name, em.name, cl.name)
  from lobbying_engagements e join people l on l.id = e.lobbyist_id join lobbying_employers em on em.id = e.employer_id
  join lobbying_clients cl on cl.id = e.client_id where ${where}), '[]'::json)`;

const sumJson = (table: string) =>
  sql<unknown>`(select json_build_object('count', count(*), 'amount', coalesce(sum(x.amount), 0)::numeric(14, 2)::text)
    from ${sql.table(table)} x where x.lobbyist_id = p.id)`;

export async function lobbyistDetail(db: Db, id: string) {
  return db
    .selectFrom('people as p')
    .select(['p.id', 'p.name', 'p.sort_name', 'p.organization', 'p.current', 'p.source_url', 'p.updated_at'])
    .select([
      engagementJson(sql`e.lobbyist_id = p.id`).as('engagements'),
      sumJson('lobbying_compensation').as('compensation'),
      sumJson('lobbying_expenditures').as('expenditures'),
      sumJson('lobbying_contributions').as('contributions'),
    ])
    .where('p.id', '=', id)
    .where('p.kind', '=', 'lobbyist')
    .executeTakeFirst();
}

export type OrgTable = 'lobbying_clients' | 'lobbying_employers';

export function organisationListQuery(db: Db, table: OrgTable, f: { lobbyist?: string; year?: number; q?: string; updatedSince?: string }) {
  const link = table === 'lobbying_clients' ? 'client_id' : 'employer_id';
  let qb: any = db
    .selectFrom(`${table} as o` as 'lobbying_clients as o')
    .select(['o.id', 'o.name', 'o.name as sort_key', 'o.city', 'o.state', 'o.country', 'o.years', 'o.source_url', 'o.updated_at']);
  if (f.lobbyist !== undefined) qb = qb.where('o.id', 'in', db.selectFrom('lobbying_engagements').select(link).where('lobbyist_id', '=', f.lobbyist));
  if (f.year !== undefined) qb = qb.where(sql<boolean>`${f.year}::integer = any(o.years)`);
  if (f.q !== undefined) qb = qb.where(sql<boolean>`o.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'o.updated_at', f.updatedSince);
}

export async function organisationDetail(db: Db, table: OrgTable, id: string) {
  const link = table === 'lobbying_clients' ? 'e.client_id' : 'e.employer_id';
  return db
    .selectFrom(`${table} as o` as 'lobbying_clients as o')
    .select(['o.id', 'o.name', 'o.city', 'o.state', 'o.country', 'o.years', 'o.source_url', 'o.updated_at'])
    .select(engagementJson(sql`${sql.ref(link)} = o.id`).as('engagements'))
    .where('o.id', '=', id)
    .executeTakeFirst();
}

export type ReportTable = 'lobbying_compensation' | 'lobbying_expenditures' | 'lobbying_contributions' | 'lobbying_gifts' | 'lobbying_activity';

/** The disclosures made to an official, who is named by recipient_person_id there (else official_person_id). */
const toOfficial = (table: ReportTable) => table === 'lobbying_contributions' || table === 'lobbying_gifts';

export const periodSortPlan = (sort: string): SortPlan => {
  const dir = sort === 'period' ? 'asc' : 'desc';
  return {
    name: sort === 'period' ? 'period' : '-period',
    keys: [
      { expr: col('x.period_start'), dir, nullable: true, cast: 'date', alias: 'period_start' },
      { expr: col('x.id'), dir: 'asc', cast: 'text', alias: 'id' },
    ],
  };
};

export interface ReportFilters {
  lobbyist?: string | undefined;
  client?: string | undefined;
  official?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
  updatedSince?: string | undefined;
}

/** Disclosure rows with the lobbyist's (and client's, official's) names. */
export function reportListQuery(db: Db, table: ReportTable, f: ReportFilters) {
  let qb: any = db
    .selectFrom(`${table} as x` as 'lobbying_activity as x')
    .innerJoin('people as l', 'l.id', 'x.lobbyist_id')
    .selectAll('x')
    .select('l.name as lobbyist_name');
  if (!toOfficial(table)) {
    qb = qb.leftJoin('lobbying_clients as cl', 'cl.id', 'x.client_id').select('cl.name as client_name');
  }
  if (table === 'lobbying_activity') qb = qb.leftJoin('people as o', 'o.id', 'x.official_person_id').select('o.name as official_name');
  if (f.lobbyist !== undefined) qb = qb.where('x.lobbyist_id', '=', f.lobbyist);
  if (f.client !== undefined) qb = qb.where('x.client_id', '=', f.client);
  if (f.official !== undefined) {
    qb = qb.where(toOfficial(table) ? 'x.recipient_person_id' : 'x.official_person_id', '=', f.official);
  }
  if (f.from !== undefined) qb = qb.where('x.period_start', '>=', f.from);
  if (f.to !== undefined) qb = qb.where('x.period_start', '<=', f.to);
  if (f.q !== undefined) qb = qb.where(sql<boolean>`x.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'x.updated_at', f.updatedSince);
}
