// Aggregates over the public record for the team dashboard's charts and scorecard (team-data
// composes them with the team's own rows). Each read is one SQL statement, however many meetings,
// votes or reports it covers: the database counts, the caller only shapes the answer.
import { sql } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { totals } from './repo-money.ts';
import type { Db } from './repo-sql.ts';

export interface Counted {
  label: string;
  n: number;
}

export interface LatestRollCall {
  recordNumber: string;
  title: string;
  rollCallId: string;
  date: string;
  actionName: string;
  result: string | null;
  tallies: { yea: number; nay: number; absent: number; notVoting: number; present: number; recused: number };
  /** Every vote listed person by person (only when asked for). */
  votes: { personId: string; name: string; ward: number | null; value: string }[];
}

const day = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const counted = (rows: { label: string | null; n: unknown }[], blank: string): Counted[] => rows.map((r) => ({ label: r.label ?? blank, n: Number(r.n) }));
const lowered = (records: readonly string[]) => [...new Set(records.map((r) => r.toLowerCase()))];

export function createAnalytics(deps: Pick<ModuleDeps, 'db'>) {
  const db: Db = deps.db;
  return {
    /**
     * The latest roll call (by date, then id) on each of these matters (record numbers, any case),
     * with its tallies and, when `withVotes`, every vote with the voter's name: one statement.
     */
    async latestRollCalls(records: readonly string[], withVotes: boolean): Promise<LatestRollCall[]> {
      if (records.length === 0) return [];
      const votes = withVotes
        ? sql`coalesce((select json_agg(json_build_object('personId', v.person_id, 'name', p.name, 'ward', p.ward, 'value', v.value) order by p.sort_name, v.person_id)
            from votes v join people p on p.id = v.person_id where v.roll_call_id = r.id), '[]'::json)`
        : sql`'[]'::json`;
      const rows = await sql<Record<string, any>>`
        select distinct on (m.id) m.record_number, m.title, r.id, r.date, r.action_name, r.result,
          r.yea, r.nay, r.absent, r.not_voting, r.present, r.recused, ${votes} as votes
        from matters m join roll_calls r on r.matter_id = m.id
        where lower(m.record_number) in (${sql.join(lowered(records))})
        order by m.id, r.date desc, r.id desc`.execute(db);
      return rows.rows
        .map((r) => ({
          recordNumber: r.record_number,
          title: r.title,
          rollCallId: r.id,
          date: day(r.date),
          actionName: r.action_name,
          result: r.result,
          tallies: {
            yea: Number(r.yea),
            nay: Number(r.nay),
            absent: Number(r.absent),
            notVoting: Number(r.not_voting),
            present: Number(r.present),
            recused: Number(r.recused),
          },
          votes: json<LatestRollCall['votes']>(r.votes),
        }))
        .sort((a, b) => a.recordNumber.localeCompare(b.recordNumber));
    },
    /** A person's name and their votes counted by value within the dates; null for an unknown person. */
    async voteCounts(personId: string, range: { from?: string | undefined; to?: string | undefined }): Promise<{ name: string; counts: Counted[] } | null> {
      const rows = await sql<{ name: string; label: string | null; n: unknown }>`
        select p.name, v.value as label, count(v.value) as n
        from people p left join votes v on v.person_id = p.id
          and (${range.from ?? null}::date is null or v.date >= ${range.from ?? null}::date)
          and (${range.to ?? null}::date is null or v.date <= ${range.to ?? null}::date)
        where p.id = ${personId}
        group by p.name, v.value order by count(v.value) desc, v.value`.execute(db);
      if (!rows.rows.length) return null;
      return {
        name: rows.rows[0]!.name,
        counts: counted(
          rows.rows.filter((r) => r.label !== null),
          '',
        ),
      };
    },
    /**
     * Attendance over the latest `meetings` meetings (of a body, within dates), counted by value,
     * for everyone or one person; with how many of those meetings had attendance taken.
     */
    async attendance(f: { bodyId?: string | undefined; personId?: string | undefined; from?: string | undefined; to?: string | undefined; meetings: number }) {
      const rows = await sql<{ label: string | null; n: unknown; meetings: unknown; held: unknown }>`
        with m as (
          select id from meetings
          where (${f.bodyId ?? null}::text is null or body_id = ${f.bodyId ?? null})
            and (${f.from ?? null}::date is null or start_time >= ${f.from ?? null}::date)
            and (${f.to ?? null}::date is null or start_time < ${f.to ?? null}::date + 1)
          order by start_time desc, id desc limit ${f.meetings}
        )
        select a.value as label, count(a.value) as n, (select count(*) from m) as meetings,
          (select count(distinct meeting_id) from attendance where meeting_id in (select id from m)) as held
        from m left join attendance a on a.meeting_id = m.id and (${f.personId ?? null}::text is null or a.person_id = ${f.personId ?? null})
        group by a.value order by count(a.value) desc, a.value`.execute(db);
      const first = rows.rows[0];
      return {
        meetings: Number(first?.meetings ?? 0),
        held: Number(first?.held ?? 0),
        counts: counted(
          rows.rows.filter((r) => r.label !== null),
          '',
        ),
      };
    },
    /** Campaign receipts by period, for one committee, a ward's committees or all (one statement, as /money/totals). */
    async receiptsByPeriod(period: 'month' | 'quarter' | 'year', f: { committeeId?: string | undefined; ward?: number | undefined }) {
      const rows = await totals(db, { ...(f.committeeId ? { committee: f.committeeId } : {}), ...(f.ward ? { ward: f.ward } : {}) }, period);
      return rows.map((r) => ({ start: day(r.start), amount: Number(r.receipts_amount) }));
    },
    /**
     * Lobbying compensation summed by client (or, for one client, by lobbyist), the twelve largest,
     * each with its id, plus the number of reports and the client's name.
     */
    async compensation(f: { clientId?: string | undefined; year?: number | undefined }) {
      const rows = await sql<{ id: string | null; label: string | null; amount: string; total_reports: unknown; client_name: string | null }>`
        with x as (
          select c.*, cl.name as client_name, p.name as lobbyist_name
          from lobbying_compensation c left join lobbying_clients cl on cl.id = c.client_id left join people p on p.id = c.lobbyist_id
          where (${f.clientId ?? null}::text is null or c.client_id = ${f.clientId ?? null})
            and (${f.year ?? null}::int is null or extract(year from c.period_start) = ${f.year ?? null}::int)
        )
        select case when ${f.clientId ?? null}::text is null then client_id else lobbyist_id end as id,
          max(case when ${f.clientId ?? null}::text is null then client_name else lobbyist_name end) as label,
          sum(amount)::text as amount, sum(count(*)) over () as total_reports, max(client_name) as client_name
        from x group by 1 order by sum(amount) desc, 1 limit 12`.execute(db);
      return {
        reports: Number(rows.rows[0]?.total_reports ?? 0),
        clientName: rows.rows[0]?.client_name ?? null,
        rows: rows.rows.map((r) => ({ id: r.id, label: r.label ?? 'Unnamed', amount: Number(r.amount) })),
      };
    },
    /** These matters counted by their current status. */
    async statusCounts(records: readonly string[]): Promise<Counted[]> {
      if (records.length === 0) return [];
      const rows = await sql<{ label: string | null; n: unknown }>`
        select status as label, count(*) as n from matters where lower(record_number) in (${sql.join(lowered(records))})
        group by status order by count(*) desc, status`.execute(db);
      return counted(rows.rows, 'No status');
    },
    /** Meetings starting at or after `since` whose agenda holds any of these matters, soonest first, with which. */
    async upcomingAgendas(records: readonly string[], since: Date, limit = 12) {
      if (records.length === 0) return [];
      const rows = await sql<{ id: string; body_name: string; start_time: unknown; records: unknown }>`
        select g.id, g.body_name, g.start_time, json_agg(distinct m.record_number) as records
        from meetings g join agenda_items a on a.meeting_id = g.id join matters m on m.id = a.matter_id
        where g.start_time >= ${since.toISOString()} and lower(m.record_number) in (${sql.join(lowered(records))})
        group by g.id, g.body_name, g.start_time order by g.start_time, g.id limit ${limit}`.execute(db);
      return rows.rows.map((r) => ({
        meetingId: r.id,
        bodyName: r.body_name,
        startTime: new Date(r.start_time as string).toISOString(),
        records: json<string[]>(r.records).sort(),
      }));
    },
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;
