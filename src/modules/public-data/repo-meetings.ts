// Meetings: the list and the detail document (agenda, attendance, documents, roll calls,
// testimony) in one round trip.
import { sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { type Db, jsonRows, rollCallJson, tsQuery, updatedSince } from './repo-sql.ts';
import type { MeetingStatus } from './tables.ts';

export const meetingColumns = [
  'g.id',
  'g.body_id',
  'g.body_name',
  'g.start_time',
  'g.location',
  'g.status',
  'g.status_detail',
  'g.comment',
  'g.video_url',
  'g.transcript_url',
  'g.source_url',
  'g.updated_at',
] as const;

export function meetingSortPlan(sort: string): SortPlan {
  const dir = sort === 'date' ? 'asc' : 'desc';
  return {
    name: sort === 'date' ? 'date' : '-date',
    keys: [
      { expr: col('g.start_time'), dir, cast: 'timestamptz', alias: 'start_time' },
      { expr: col('g.id'), dir: 'asc', cast: 'text', alias: 'id' },
    ],
  };
}

export interface MeetingFilters {
  body?: string | undefined;
  status?: MeetingStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
  updatedSince?: string | undefined;
}

export function meetingListQuery(db: Db, f: MeetingFilters) {
  let qb: any = db.selectFrom('meetings as g').select([...meetingColumns]);
  if (f.body !== undefined) qb = qb.where('g.body_id', '=', f.body);
  if (f.status !== undefined) qb = qb.where('g.status', '=', f.status);
  // Dates are days in Chicago: a meeting "on 2023-10-12" is one whose local date is that day.
  if (f.from !== undefined) qb = qb.where('g.start_time', '>=', sql`cast(${f.from} as date)::timestamp at time zone 'America/Chicago'`);
  if (f.to !== undefined) qb = qb.where('g.start_time', '<', sql`(cast(${f.to} as date) + 1)::timestamp at time zone 'America/Chicago'`);
  if (f.q !== undefined) qb = qb.where(sql<boolean>`g.search @@ ${tsQuery(f.q)}`);
  return updatedSince(qb, 'g.updated_at', f.updatedSince);
}

/** The detail documents of meetings (one row each, parts as JSON): filter by id, or by many ids. */
export function meetingDetailQuery(db: Db) {
  return db
    .selectFrom('meetings as g')
    .select([...meetingColumns])
    .select([
      jsonRows(
        sql`select i.id, i.sort, i.record_number as "recordNumber", i.title, i.action_text as "actionText", i.minutes_note as "minutesNote",
          case when m.id is null then null else json_build_object('id', m.id, 'recordNumber', m.record_number, 'type', m.type,
            'title', m.title, 'status', m.status) end as matter
          from agenda_items i left join matters m on m.id = i.matter_id where i.meeting_id = g.id order by i.sort, i.id`,
      ).as('agenda'),
      jsonRows(
        sql`select a.person_id as "personId", p.name, p.ward, a.value from attendance a join people p on p.id = a.person_id
          where a.meeting_id = g.id order by p.sort_name, a.person_id`,
      ).as('attendance'),
      jsonRows(sql`select d.name, d.kind, d.url from meeting_documents d where d.meeting_id = g.id order by d.sort, d.name`).as('documents'),
      jsonRows(sql`select ${rollCallJson} as j from roll_calls r where r.meeting_id = g.id order by r.date, r.id`).as('roll_calls'),
      jsonRows(
        sql`select t.id, t.matter_id as "matterId", t.speaker_name as "speakerName", t.speaker_kind as "speakerKind",
          t.organization, t.position, t.mode, t.summary from testimony t where t.meeting_id = g.id order by t.id`,
      ).as('testimony'),
    ]);
}

export async function meetingDetail(db: Db, id: string) {
  return meetingDetailQuery(db).where('g.id', '=', id).executeTakeFirst();
}
