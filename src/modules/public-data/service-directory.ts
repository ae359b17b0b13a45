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
import type { PersonKind, SpeakerKind } from './schema-people.ts';
import type { VoteValue } from './tables.ts';

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
  speakerKind: SpeakerKind;
  organization: string | null;
  position: 'supports' | 'opposes' | 'neutral' | null;
  mode: 'in_person' | 'virtual' | 'written' | null;
  summary: string | null;
}

export interface MatterSummary {
  id: string;
  recordNumber: string;
  title: string;
  status: string | null;
  latestAction: { date: string | null; name: string; bodyName: string | null; result: string | null } | null;
}

export interface DirectoryVote {
  personId: string;
  rollCallId: string;
  value: VoteValue;
  date: string;
  actionName: string;
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
    /** The people of the given kinds among `ids`, in no particular order. */
    async peopleByIds(ids: readonly string[], kinds: readonly PersonKind[]): Promise<DirectoryPerson[]> {
      if (ids.length === 0 || kinds.length === 0) return [];
      const rows = await db
        .selectFrom('people as p')
        .select([...personColumns])
        .where('p.id', 'in', [...ids])
        .where('p.kind', 'in', [...kinds])
        .execute();
      return rows.map(presentPerson);
    },
    /** Of `ids`, those that name a person of the given kinds. */
    async existingPeople(ids: readonly string[], kinds: readonly PersonKind[]): Promise<Set<string>> {
      if (ids.length === 0 || kinds.length === 0) return new Set();
      const rows = await db
        .selectFrom('people')
        .select('id')
        .where('id', 'in', [...ids])
        .where('kind', 'in', [...kinds])
        .execute();
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
    /** Title, status and latest action of matters by record number (case-insensitive), keyed by the lower-cased record number. */
    async matterSummaries(records: readonly string[]): Promise<Map<string, MatterSummary>> {
      if (records.length === 0) return new Map();
      const lowered = [...new Set(records.map((r) => r.toLowerCase()))];
      const rows = await db
        .selectFrom('matters as m')
        .select(['m.id', 'm.record_number', 'm.title', 'm.status'])
        .select(
          sql<
            MatterSummary['latestAction']
          >`(select json_build_object('date', a.action_date, 'name', a.action_name, 'bodyName', a.body_name, 'result', a.result)
            from matter_actions a where a.matter_id = m.id order by a.sort desc, a.action_date desc nulls last, a.id desc limit 1)`.as('latest_action'),
        )
        .where(sql<boolean>`lower(m.record_number) in (${sql.join(lowered)})`)
        .execute();
      return new Map(
        rows.map((r) => [
          r.record_number.toLowerCase(),
          {
            id: r.id,
            recordNumber: r.record_number,
            title: r.title,
            status: r.status,
            latestAction: typeof r.latest_action === 'string' ? JSON.parse(r.latest_action) : r.latest_action,
          },
        ]),
      );
    },
    /** Each vote of these people on a matter, oldest first. */
    async votesOn(matterId: string, personIds: readonly string[]): Promise<DirectoryVote[]> {
      if (personIds.length === 0) return [];
      const rows = await db
        .selectFrom('votes as v')
        .innerJoin('roll_calls as r', 'r.id', 'v.roll_call_id')
        .select(['v.person_id', 'v.value', 'v.date', 'r.action_name', 'r.id as roll_call_id'])
        .where('v.matter_id', '=', matterId)
        .where('v.person_id', 'in', [...personIds])
        .orderBy('v.date')
        .orderBy('r.id')
        .execute();
      return rows.map((r) => ({
        personId: r.person_id,
        rollCallId: r.roll_call_id,
        value: r.value,
        date: String(r.date).slice(0, 10),
        actionName: r.action_name,
      }));
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
