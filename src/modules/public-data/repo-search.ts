// One ranked search across matters, people, meetings, bodies and lobbying organisations. Each
// type's branch ranks only its own GIN-index matches and keeps only one page of them; the
// branches are merged by rank. The page key is (rank, type, id).
import { type RawBuilder, sql } from 'kysely';
import { type CursorValue, decodeCursor, type Page, toPage } from './cursor.ts';
import { checkCursorKeys } from './keyset.ts';
import { candidateRank, recentMatches } from './repo-matters.ts';
import { isoTs, rank, TITLE_AS_NAME, tsQuery } from './repo-sql.ts';
import type { Db } from './repo-sql.ts';
import { publicPersonKinds } from './schema-people.ts';
import type { searchTypes } from './schema-search.ts';
import type { PostingsPlan } from './search-postings.ts';

type SearchType = (typeof searchTypes)[number];

export interface SearchRow {
  type: SearchType;
  id: string;
  title: string;
  subtitle: string | null;
  date: string | null;
  path: string;
  rank: number;
  updatedAt: string;
}

function branch(db: Db, type: SearchType, q: string, since: string | undefined, postings: PostingsPlan | null): RawBuilder<unknown> {
  const tsq = tsQuery(q);
  const changed = (alias: string) => (since === undefined ? sql`` : sql` and ${sql.ref(`${alias}.updated_at`)} >= ${new Date(since)}`);
  switch (type) {
    case 'matter': {
      // The matters list's own plan (repo-matters.ts): the most recent RANKED_CANDIDATES matches
      // (a record number: its exact match), then ranked with the title weighing as the other
      // kinds' names do (TITLE_AS_NAME): with the list's own weights, a word in a matter's title
      // counted 0.4 of the same word in a committee's name, so "housing" listed eight joint
      // committees and six meetings before any legislation.
      const candidates = recentMatches(db, { q, updatedSince: since }, undefined, postings);
      return sql`select 'matter' as type, m.id, m.title, m.record_number || ' · ' || m.type as subtitle, m.introduction_date::text as date,
        '/matters/' || m.record_number as path, ${candidateRank(q, 'm', undefined, TITLE_AS_NAME)} as rank, ${isoTs('m.updated_at')} as "updatedAt"
        from ${candidates} m`;
    }
    case 'person':
      return sql`select 'person' as type, p.id, p.name as title,
        p.kind || coalesce(', ward ' || p.ward::text, '') as subtitle, null::text as date, '/people/' || p.id as path, ${rank('p.search', q)} as rank, ${isoTs('p.updated_at')} as "updatedAt"
        from people p where p.search @@ ${tsq} and p.kind in (${sql.join([...publicPersonKinds])})${changed('p')}`;
    case 'meeting':
      return sql`select 'meeting' as type, g.id, g.body_name as title, g.location as subtitle, ${isoTs('g.start_time')} as date,
        '/meetings/' || g.id as path, ${rank('g.search', q)} as rank, ${isoTs('g.updated_at')} as "updatedAt" from meetings g where g.search @@ ${tsq}${changed('g')}`;
    case 'body':
      return sql`select 'body' as type, b.id, b.name as title, b.kind as subtitle, null::text as date, '/bodies/' || b.id as path,
        ${rank('b.search', q)} as rank, ${isoTs('b.updated_at')} as "updatedAt" from bodies b where b.search @@ ${tsq}${changed('b')}`;
    case 'lobbying_client':
      return sql`select 'lobbying_client' as type, o.id, o.name as title, o.city as subtitle, null::text as date,
        '/lobbying/clients/' || o.id as path, ${rank('o.search', q)} as rank, ${isoTs('o.updated_at')} as "updatedAt" from lobbying_clients o where o.search @@ ${tsq}${changed('o')}`;
    case 'lobbying_employer':
      return sql`select 'lobbying_employer' as type, o.id, o.name as title, o.city as subtitle, null::text as date,
        '/lobbying/employers/' || o.id as path, ${rank('o.search', q)} as rank, ${isoTs('o.updated_at')} as "updatedAt" from lobbying_employers o where o.search @@ ${tsq}${changed('o')}`;
  }
}

/** The keys of a search cursor: rank, type, id. */
const relevanceKeys = [{ cast: 'real' }, { cast: 'text' }, { cast: 'text' }] as const;

// "Strictly after the cursor" for one branch, whose type is a constant: compare it once here.
function afterCursor(type: SearchType, cursor: CursorValue[] | null): RawBuilder<boolean> {
  if (!cursor) return sql<boolean>`true`;
  const [r, t, id] = cursor as [number, string, string];
  const rk = sql`cast(${r} as real)`;
  if (type > t) return sql<boolean>`s.rank <= ${rk}`;
  if (type < t) return sql<boolean>`s.rank < ${rk}`;
  return sql<boolean>`(s.rank < ${rk} or (s.rank = ${rk} and s.id > ${id}))`;
}

export async function search(
  db: Db,
  input: { q: string; types: readonly SearchType[]; limit: number; cursor?: string | undefined; updatedSince?: string | undefined },
  postings: PostingsPlan | null = null,
): Promise<Page<SearchRow>> {
  const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor, 'relevance', 3);
  if (cursor) checkCursorKeys(relevanceKeys, cursor);
  const n = input.limit + 1;
  const parts = input.types.map(
    (type) =>
      sql`(select * from (${branch(db, type, input.q, input.updatedSince, postings)}) s where ${afterCursor(type, cursor)} order by s.rank desc, s.id limit ${n})`,
  );
  const rows = await sql<SearchRow>`select * from (${sql.join(parts, sql` union all `)}) u order by u.rank desc, u.type, u.id limit ${n}`.execute(db);
  return toPage(
    rows.rows,
    input.limit,
    'relevance',
    (r) => [r.rank, r.type, r.id],
    (r) => r,
  );
}
