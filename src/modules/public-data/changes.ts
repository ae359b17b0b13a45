// What happened to a followed thing, as items with stable keys, for alerts on follows
// (modules/alerts): a matter's actions and roll calls; a person's votes and the new matters naming
// them as a sponsor; a body's meetings (each status a meeting reaches is an item: scheduled, then
// held or cancelled); the new matters a search matches. The alerts module remembers which keys it
// has announced; this file only reads the public record.
//
// `since` bounds the items that carry a timestamp (written by ingestion as the transaction's now()):
// a person's votes and a body's meetings changed after it, and matters first seen after it. A
// matter's actions carry none, so all of them are returned (a matter has a few dozen at most).
import { sql } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { tsQuery } from './repo-sql.ts';

export type FollowedKind = 'legislation' | 'person' | 'body' | 'search';

export interface ChangeItem {
  /** Stable per change: `action:<id>`, `roll_call:<id>`, `vote:<roll call id>`, `sponsor:<matter id>`, `meeting:<id>:<status>`, `matter:<id>`. */
  key: string;
  /** One line saying what happened. */
  title: string;
  /** The public page of the record, relative to the site (`/matters/SO2026-0025407`). */
  path: string;
  /** The day it happened (YYYY-MM-DD), when the record says. */
  date: string | null;
}

/** At most this many items of one kind per look (the newest); the rest come at the next look. */
const MAX_ITEMS = 500;

const day = (d: unknown): string | null => (d == null ? null : d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));
const tally = (r: { yea: number; nay: number }) => `${r.yea}–${r.nay}`;

export function createChangeFeed(deps: Pick<ModuleDeps, 'db'>) {
  const { db } = deps;

  async function legislation(record: string): Promise<ChangeItem[]> {
    const actions = await sql<{
      id: string;
      record_number: string;
      action_date: unknown;
      action_name: string;
      body_name: string | null;
      result: string | null;
    }>`
      select a.id, m.record_number, a.action_date, a.action_name, a.body_name, a.result
      from matters m join matter_actions a on a.matter_id = m.id
      where lower(m.record_number) = lower(${record})
      order by a.sort desc limit ${MAX_ITEMS}`.execute(db);
    const rolls = await sql<{ id: string; record_number: string; date: unknown; action_name: string; result: string | null; yea: number; nay: number }>`
      select r.id, m.record_number, r.date, r.action_name, r.result, r.yea, r.nay
      from matters m join roll_calls r on r.matter_id = m.id
      where lower(m.record_number) = lower(${record})
      order by r.date desc limit ${MAX_ITEMS}`.execute(db);
    return [
      ...actions.rows.map((a) => ({
        key: `action:${a.id}`,
        title: `${a.record_number}: ${a.action_name}${a.body_name ? ` (${a.body_name})` : ''}${a.result ? `, ${a.result}` : ''}`,
        path: `/matters/${encodeURIComponent(a.record_number)}`,
        date: day(a.action_date),
      })),
      ...rolls.rows.map((r) => ({
        key: `roll_call:${r.id}`,
        title: `${r.record_number}: roll call on "${r.action_name}"${r.result ? `, ${r.result}` : ''} (${tally(r)})`,
        path: `/roll-calls/${encodeURIComponent(r.id)}`,
        date: day(r.date),
      })),
    ];
  }

  async function person(personId: string, since: Date): Promise<ChangeItem[]> {
    const votes = await sql<{ roll_call_id: string; value: string; date: unknown; action_name: string; record_number: string | null; title: string | null }>`
      select v.roll_call_id, v.value, v.date, r.action_name, m.record_number, m.title
      from votes v join roll_calls r on r.id = v.roll_call_id left join matters m on m.id = r.matter_id
      where v.person_id = ${personId} and v.updated_at > ${since}
      order by v.date desc limit ${MAX_ITEMS}`.execute(db);
    const named = await sql<{ id: string; record_number: string; title: string; role: string; introduction_date: unknown }>`
      select m.id, m.record_number, m.title, s.role, m.introduction_date
      from matter_sponsors s join matters m on m.id = s.matter_id
      where s.person_id = ${personId} and m.first_seen_at > ${since}
      order by m.first_seen_at desc limit ${MAX_ITEMS}`.execute(db);
    return [
      ...votes.rows.map((v) => ({
        key: `vote:${v.roll_call_id}`,
        title: `Voted ${v.value}${v.record_number ? ` on ${v.record_number}: ${v.title}` : ` on "${v.action_name}"`}`,
        path: `/roll-calls/${encodeURIComponent(v.roll_call_id)}`,
        date: day(v.date),
      })),
      ...named.rows.map((m) => ({
        key: `sponsor:${m.id}`,
        title: `Named ${m.role.replace('_', ' ')} of ${m.record_number}: ${m.title}`,
        path: `/matters/${encodeURIComponent(m.record_number)}`,
        date: day(m.introduction_date),
      })),
    ];
  }

  async function body(bodyId: string, since: Date): Promise<ChangeItem[]> {
    const meetings = await sql<{ id: string; body_name: string; start_time: Date; status: string; location: string | null }>`
      select id, body_name, start_time, status, location from meetings
      where body_id = ${bodyId} and updated_at > ${since}
      order by start_time desc limit ${MAX_ITEMS}`.execute(db);
    return meetings.rows.map((m) => ({
      key: `meeting:${m.id}:${m.status}`,
      title: `${m.body_name} meeting ${m.status} for ${new Date(m.start_time).toISOString().slice(0, 16).replace('T', ' ')} UTC${m.location ? `, ${m.location}` : ''}`,
      path: `/meetings/${encodeURIComponent(m.id)}`,
      date: day(new Date(m.start_time)),
    }));
  }

  async function search(query: string, since: Date): Promise<ChangeItem[]> {
    const found = await sql<{ id: string; record_number: string; title: string; introduction_date: unknown }>`
      select id, record_number, title, introduction_date from matters
      where search @@ ${tsQuery(query)} and first_seen_at > ${since}
      order by first_seen_at desc limit ${MAX_ITEMS}`.execute(db);
    return found.rows.map((m) => ({
      key: `matter:${m.id}`,
      title: `New match: ${m.record_number}: ${m.title}`,
      path: `/matters/${encodeURIComponent(m.record_number)}`,
      date: day(m.introduction_date),
    }));
  }

  return {
    /** The items of a followed thing (see the top of this file for what `since` bounds). */
    async itemsFor(kind: FollowedKind, refId: string, since: Date): Promise<ChangeItem[]> {
      switch (kind) {
        case 'legislation':
          return legislation(refId);
        case 'person':
          return person(refId, since);
        case 'body':
          return body(refId, since);
        case 'search':
          return search(refId, since);
      }
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
