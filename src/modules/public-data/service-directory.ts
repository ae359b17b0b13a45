// Reads over every kind of person and all of a meeting's testimony, plus cheap existence lookups,
// for the team-data module (follows, notes, positions, targets, the people routes). This module
// owns the tables; the caller decides which kinds a given actor may see (team-data's policy.ts),
// so every read here takes the kinds it may return.
import { sql } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Page } from './cursor.ts';
import { paginate } from './keyset.ts';
import { presentPerson as presentPublicPerson } from './presenters.ts';
import { personColumns, personSortPlan } from './repo-people.ts';
import { type Db, tsQuery } from './repo-sql.ts';
import type { PersonKind } from './tables.ts';

export interface DirectoryPerson {
  id: string;
  name: string;
  sortName: string;
  kind: PersonKind;
  ward: number | null;
  current: boolean;
  organization: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  photoUrl: string | null;
  updatedAt: string;
}

export interface DirectoryTestimony {
  id: string;
  meetingId: string;
  matterId: string | null;
  personId: string | null;
  speakerName: string;
  speakerKind: 'resident' | 'organization_rep' | 'official' | 'staff' | 'lobbyist';
  organization: string | null;
  position: 'supports' | 'opposes' | 'neutral' | null;
  mode: 'in_person' | 'virtual' | 'written' | null;
  summary: string | null;
}

type Row = Record<string, any>;
// The public presenter's person, without its source URL: the directory answers about people
// of every kind, some of whom have no public source page.
const presentPerson = (r: Row): DirectoryPerson => {
  const { sourceUrl: _sourceUrl, ...person } = presentPublicPerson(r);
  return person;
};

export interface DirectoryPeopleQuery {
  kinds: readonly PersonKind[];
  q?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export function createDirectory(deps: Pick<ModuleDeps, 'db'>) {
  const db: Db = deps.db;
  return {
    /** People of the given kinds, by name, keyset-paged. */
    async people(query: DirectoryPeopleQuery): Promise<Page<DirectoryPerson>> {
      if (query.kinds.length === 0) return { data: [], meta: { nextCursor: null } };
      let qb: any = db
        .selectFrom('people as p')
        .select([...personColumns])
        .where('p.kind', 'in', [...query.kinds]);
      if (query.q !== undefined) qb = qb.where(sql<boolean>`p.search @@ ${tsQuery(query.q)}`);
      return paginate(qb, personSortPlan('name'), query, presentPerson);
    },
    /** One person of the given kinds, or null. */
    async person(id: string, kinds: readonly PersonKind[]): Promise<DirectoryPerson | null> {
      if (kinds.length === 0) return null;
      const row = await db
        .selectFrom('people as p')
        .select([...personColumns])
        .where('p.id', '=', id)
        .where('p.kind', 'in', [...kinds])
        .executeTakeFirst();
      return row ? presentPerson(row) : null;
    },
    /** Of `ids`, those that name a person of the given kinds. */
    async existingPeople(ids: readonly string[], kinds: readonly PersonKind[]): Promise<Set<string>> {
      if (ids.length === 0 || kinds.length === 0) return new Set();
      const rows = await db.selectFrom('people').select('id').where('id', 'in', [...ids]).where('kind', 'in', [...kinds]).execute();
      return new Set(rows.map((r) => r.id));
    },
    /** Matters by record number (case-insensitive), keyed by the lower-cased record number asked for. */
    async mattersByRecord(records: readonly string[]): Promise<Map<string, { id: string; recordNumber: string; title: string }>> {
      if (records.length === 0) return new Map();
      const lowered = [...new Set(records.map((r) => r.toLowerCase()))];
      const rows = await db
        .selectFrom('matters')
        .select(['id', 'record_number', 'title'])
        .where(sql<boolean>`lower(record_number) in (${sql.join(lowered)})`)
        .execute();
      return new Map(rows.map((r) => [r.record_number.toLowerCase(), { id: r.id, recordNumber: r.record_number, title: r.title }]));
    },
    async body(id: string): Promise<{ id: string; name: string } | null> {
      return (await db.selectFrom('bodies').select(['id', 'name']).where('id', '=', id).executeTakeFirst()) ?? null;
    },
    async meeting(id: string): Promise<{ id: string; bodyName: string; startTime: string } | null> {
      const row = await db.selectFrom('meetings').select(['id', 'body_name', 'start_time']).where('id', '=', id).executeTakeFirst();
      return row ? { id: row.id, bodyName: row.body_name, startTime: new Date(row.start_time).toISOString() } : null;
    },
    /** A meeting's testimony by speakers of the given kinds, in the source's order; null for an unknown meeting. */
    async testimony(meetingId: string, speakerKinds: readonly DirectoryTestimony['speakerKind'][]): Promise<DirectoryTestimony[] | null> {
      if (!(await db.selectFrom('meetings').select('id').where('id', '=', meetingId).executeTakeFirst())) return null;
      if (speakerKinds.length === 0) return [];
      const rows = await db
        .selectFrom('testimony')
        .select(['id', 'meeting_id', 'matter_id', 'person_id', 'speaker_name', 'speaker_kind', 'organization', 'position', 'mode', 'summary'])
        .where('meeting_id', '=', meetingId)
        .where('speaker_kind', 'in', [...speakerKinds])
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        meetingId: r.meeting_id,
        matterId: r.matter_id,
        personId: r.person_id,
        speakerName: r.speaker_name,
        speakerKind: r.speaker_kind,
        organization: r.organization,
        position: r.position,
        mode: r.mode,
        summary: r.summary,
      }));
    },
  };
}

export type Directory = ReturnType<typeof createDirectory>;
