// Bodies, public people and source freshness.
import { sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { type Db, jsonRows, tsQuery, updatedSince } from './repo-sql.ts';
import { publicPersonKinds } from './schema-people.ts';
import type { PersonKind } from './tables.ts';

export const bodySortPlan = (sort: string): SortPlan => ({
  name: sort === '-name' ? '-name' : 'name',
  keys: [
    { expr: col('b.name'), dir: sort === '-name' ? 'desc' : 'asc', cast: 'text', alias: 'name' },
    { expr: col('b.id'), dir: 'asc', cast: 'text', alias: 'id' },
  ],
});

const bodyColumns = ['b.id', 'b.name', 'b.abbreviation', 'b.kind', 'b.active', 'b.source_url', 'b.updated_at'] as const;

export function bodyListQuery(db: Db, f: { kind?: string; active?: boolean; q?: string; updatedSince?: string }) {
  let qb: any = db.selectFrom('bodies as b').select([...bodyColumns]);
  if (f.kind !== undefined) qb = qb.where('b.kind', '=', f.kind);
  if (f.active !== undefined) qb = qb.where('b.active', '=', f.active);
  if (f.q !== undefined) qb = qb.where(sql<boolean>`b.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'b.updated_at', f.updatedSince);
}

/** Chairs first, then vice chairs, then everyone else (m is body_memberships). */
const roleRank = sql`case m.role when 'Chair' then 0 when 'Vice Chair' then 1 else 2 end`;

/** The detail documents of bodies (members as JSON, chairs and vice chairs first): filter by id, or by many ids. */
export function bodyDetailQuery(db: Db) {
  return db
    .selectFrom('bodies as b')
    .select([...bodyColumns])
    .select(
      jsonRows(
        sql`select m.person_id as "personId", p.name, p.ward, m.role, m.start_date as "startDate", m.end_date as "endDate"
          from body_memberships m join people p on p.id = m.person_id
          where m.body_id = b.id and p.kind in ('alderperson', 'official', 'lobbyist') order by ${roleRank}, p.sort_name, m.start_date`,
      ).as('members'),
    );
}

export async function bodyDetail(db: Db, id: string) {
  return bodyDetailQuery(db).where('b.id', '=', id).executeTakeFirst();
}

export const personSortPlan = (sort: string): SortPlan => {
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const id = { expr: col('p.id'), dir: 'asc', cast: 'text', alias: 'id' } as const;
  if (sort === 'ward' || sort === '-ward') {
    return { name: sort, keys: [{ expr: col('p.ward'), dir, nullable: true, cast: 'integer', alias: 'ward' }, id] };
  }
  return { name: dir === 'desc' ? '-name' : 'name', keys: [{ expr: col('p.sort_name'), dir, cast: 'text', alias: 'sort_name' }, id] };
};

export const personColumns = [
  'p.id',
  'p.name',
  'p.sort_name',
  'p.kind',
  'p.ward',
  'p.current',
  'p.organization',
  'p.email',
  'p.phone',
  'p.website',
  'p.photo_url',
  'p.source_url',
  'p.updated_at',
] as const;

export interface PeopleFilters {
  kind?: string | undefined;
  ward?: number | undefined;
  current?: boolean | undefined;
  body?: string | undefined;
  q?: string | undefined;
  updatedSince?: string | undefined;
}

/** Public people only: residents, organization representatives and staff never list here. */
export function personListQuery(db: Db, f: PeopleFilters) {
  let qb: any = db
    .selectFrom('people as p')
    .select([...personColumns])
    .where('p.kind', 'in', (f.kind !== undefined ? [f.kind] : [...publicPersonKinds]) as PersonKind[]);
  if (f.ward !== undefined) qb = qb.where('p.ward', '=', f.ward);
  if (f.current !== undefined) qb = qb.where('p.current', '=', f.current);
  if (f.body !== undefined) qb = qb.where('p.id', 'in', db.selectFrom('body_memberships').select('person_id').where('body_id', '=', f.body));
  if (f.q !== undefined) qb = qb.where(sql<boolean>`p.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'p.updated_at', f.updatedSince);
}

/** The detail documents of people of these kinds (terms and memberships as JSON): filter by id, or by many ids. */
export function personDetailQuery(db: Db, kinds: readonly string[]) {
  return db
    .selectFrom('people as p')
    .select([...personColumns])
    .select([
      jsonRows(
        sql`select t.office, t.ward, t.start_date as "startDate", t.end_date as "endDate" from person_terms t
          where t.person_id = p.id order by t.start_date desc nulls last, t.office`,
      ).as('terms'),
      jsonRows(
        sql`select m.body_id as "bodyId", b.name as "bodyName", m.role, m.start_date as "startDate", m.end_date as "endDate"
          from body_memberships m join bodies b on b.id = m.body_id where m.person_id = p.id order by ${roleRank}, b.name, m.start_date`,
      ).as('memberships'),
    ])
    .where('p.kind', 'in', [...kinds] as PersonKind[]);
}

export async function personDetail(db: Db, id: string, kinds: readonly string[]) {
  return personDetailQuery(db, kinds).where('p.id', '=', id).executeTakeFirst();
}

export async function sourceStatuses(db: Db) {
  return db.selectFrom('source_sync').selectAll().orderBy('source').execute();
}
