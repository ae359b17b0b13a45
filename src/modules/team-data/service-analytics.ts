// The team's analytics: the figures of one dashboard chart (public aggregates, or the team's own
// bills), the scorecard (how each alderperson voted relative to the team's stances, on the latest
// roll call of each bill), and the starter dashboard a new team gets. Composed here once, so the
// dashboard, MCP, GraphQL and v2 show the same figures; each chart is one or two statements.
import type { Actor } from '../../kernel/actor.ts';
import type { Counted, LatestRollCall } from '../public-data/index.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import * as repo from './repo.ts';
import * as prepo from './repo-positions.ts';
import { type LayoutValue, parseSettings } from './schema.ts';
import type { ChartInput, ChartOut, ScorecardInput, ScorecardOut } from './schema-analytics.ts';

type S = Record<string, string | number | undefined>;
type Bars = ChartOut['bars'];
type Stance = 'supports' | 'opposes';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const range = (s: S) => ({ from: str(s.from), to: str(s.to) });
const during = (s: S) => (s.from || s.to ? ` (${s.from ?? '…'} to ${s.to ?? '…'})` : '');
const dollars = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
const bars = (rows: Counted[], href: (label: string) => string | null = () => null): Bars =>
  rows.map((r) => ({ label: r.label, value: r.n, text: String(r.n), href: href(r.label) }));

/** Whether a vote agrees with the stance: Yea on a bill supported, Nay on one opposed; null for any other value. */
export function agrees(value: string, stance: Stance): boolean | null {
  if (value !== 'Yea' && value !== 'Nay') return null;
  return (value === 'Yea') === (stance === 'supports');
}

/** The starter dashboard: the team's bills by status, on upcoming agendas, and how its targets voted. */
export const starterLayout: LayoutValue = {
  widgets: (['team_bills_by_status', 'team_upcoming_agendas', 'team_target_votes'] as const).map((kind, i) => ({
    id: `starter-${i + 1}`,
    kind,
    position: { x: 0, y: i * 4 },
    size: { w: 12, h: 4 },
    settings: {},
  })),
};

export function createAnalyticsService(kit: Kit) {
  const { db, analytics } = kit;

  /** The team's bills: record numbers it follows or has a stance on, and its stances. */
  async function teamBills(teamId: string) {
    const [positions, followed] = await Promise.all([prepo.allPositions(db, teamId), repo.followedRefs(db, { teamId }, 'legislation')]);
    const stances = new Map<string, Stance>(positions.map((p) => [p.record_number, p.stance]));
    return { records: [...new Set([...stances.keys(), ...followed])], stances };
  }

  /** Each scored vote on the latest roll call of the bills the team has a stance on. */
  async function scoredBills(stances: Map<string, Stance>): Promise<{ rc: LatestRollCall; stance: Stance }[]> {
    const calls = await analytics.latestRollCalls([...stances.keys()], true);
    const byLower = new Map([...stances].map(([r, s]) => [r.toLowerCase(), s]));
    return calls.map((rc) => ({ rc, stance: byLower.get(rc.recordNumber.toLowerCase())! }));
  }

  const kinds: Record<ChartInput['kind'], (teamId: string, s: S) => Promise<Omit<ChartOut, 'kind'>>> = {
    async roll_call(_t, s) {
      const record = String(s.recordNumber);
      const [rc] = await analytics.latestRollCalls([record], false);
      const head = ['Vote', 'Members'];
      if (!rc) return { title: `Roll call on ${record}`, head, bars: [], note: 'No roll call is recorded for this bill.' };
      const t = rc.tallies;
      const figures: Counted[] = [
        { label: 'Yea', n: t.yea },
        { label: 'Nay', n: t.nay },
        { label: 'Absent', n: t.absent },
        { label: 'Not voting', n: t.notVoting },
        { label: 'Present', n: t.present },
        { label: 'Recused', n: t.recused },
      ];
      return {
        title: `Roll call on ${rc.recordNumber}, ${rc.date}: ${rc.actionName}${rc.result && rc.result !== rc.actionName ? ` (${rc.result})` : ''}`,
        head,
        bars: bars(figures, () => `/roll-calls/${encodeURIComponent(rc.rollCallId)}`),
        note: rc.title,
      };
    },
    async voting_record(_t, s) {
      const found = await analytics.voteCounts(String(s.personId), range(s));
      if (!found) return { title: 'Voting record', head: ['Vote', 'Roll calls'], bars: [], note: 'No such person in the public record.' };
      const total = found.counts.reduce((a, c) => a + c.n, 0);
      return { title: `Voting record of ${found.name}${during(s)}`, head: ['Vote', 'Roll calls'], bars: bars(found.counts), note: `${total} votes.` };
    },
    async attendance(_t, s) {
      const personId = str(s.personId);
      const [a, person] = await Promise.all([
        analytics.attendance({ bodyId: str(s.bodyId), personId, ...range(s), meetings: 20 }),
        personId ? analytics.voteCounts(personId, {}) : Promise.resolve(null),
      ]);
      return {
        title: `Attendance of ${person?.name ?? (personId ? 'this person' : 'all members')}${during(s)}`,
        head: ['Attendance', 'Times recorded'],
        bars: bars(a.counts),
        note: `From the latest ${a.meetings} meetings (${a.held} with attendance taken).`,
      };
    },
    async money_by_period(_t, s) {
      const period = (str(s.period) ?? 'year') as 'year';
      const rows = (await analytics.receiptsByPeriod(period, { committeeId: str(s.committeeId), ward: typeof s.ward === 'number' ? s.ward : undefined })).slice(
        -16,
      );
      const who = str(s.committeeId) ? 'one committee' : s.ward ? `ward ${s.ward}` : 'all committees';
      const label = (start: string) => (period === 'year' ? start.slice(0, 4) : start.slice(0, 7));
      return {
        title: `Campaign receipts by ${period}, ${who}`,
        head: [period === 'year' ? 'Year' : 'Starting', 'Receipts'],
        bars: rows.map((r) => ({ label: label(r.start), value: r.amount, text: dollars(r.amount), href: null })),
        note: rows.length ? null : 'No receipts recorded.',
      };
    },
    async lobbying_by_client(_t, s) {
      const clientId = str(s.clientId);
      const year = typeof s.year === 'number' ? s.year : undefined;
      const c = await analytics.compensation({ clientId, year });
      const title = clientId
        ? `Lobbying compensation for ${c.clientName ?? 'this client'}, by lobbyist`
        : 'Lobbying compensation by client (the twelve largest)';
      return {
        title: `${title}${year ? `, ${year}` : ''}`,
        head: [clientId ? 'Lobbyist' : 'Client', 'Compensation'],
        bars: c.rows.map((r) => ({
          label: r.label,
          value: r.amount,
          text: dollars(r.amount),
          href: r.id ? `/lobbying/${clientId ? 'lobbyists' : 'clients'}/${encodeURIComponent(r.id)}` : null,
        })),
        note: `${c.reports} compensation reports.`,
      };
    },
    async team_bills_by_status(teamId) {
      const { records } = await teamBills(teamId);
      const counts = await analytics.statusCounts(records);
      return {
        title: "The team's bills by status",
        head: ['Status', 'Bills'],
        bars: bars(counts),
        note: records.length
          ? `${records.length} ${records.length === 1 ? 'bill' : 'bills'} followed or with a stance.`
          : 'Follow a bill or take a stance on one to see it here.',
      };
    },
    async team_upcoming_agendas(teamId) {
      const { records } = await teamBills(teamId);
      const meetings = await analytics.upcomingAgendas(records, kit.clock.now());
      return {
        title: "The team's bills on upcoming agendas",
        head: ['Meeting', 'Team bills on the agenda'],
        bars: meetings.map((m) => ({
          label: `${m.startTime.slice(0, 10)} ${m.bodyName}`,
          value: m.records.length,
          text: m.records.join(', '),
          href: `/meetings/${encodeURIComponent(m.meetingId)}`,
        })),
        note: meetings.length ? null : records.length ? 'None of the team’s bills is on an upcoming agenda.' : 'The team follows no bills yet.',
      };
    },
    async team_target_votes(teamId) {
      const targets = await prepo.targetsWithStances(db, teamId);
      const stances = new Map<string, Stance>(targets.map((t) => [t.record_number, t.stance]));
      const scored = await scoredBills(stances);
      const wanted = new Set(targets.map((t) => `${t.person_id} ${t.record_number.toLowerCase()}`));
      const tally = new Map<string, { name: string; with: number; of: number }>();
      for (const { rc, stance } of scored) {
        for (const v of rc.votes) {
          if (!wanted.has(`${v.personId} ${rc.recordNumber.toLowerCase()}`)) continue;
          const t = tally.get(v.personId) ?? { name: v.name, with: 0, of: 0 };
          const a = agrees(v.value, stance);
          if (a !== null) t.of++;
          if (a) t.with++;
          tally.set(v.personId, t);
        }
      }
      return {
        title: "How the team's targets voted on its bills",
        head: ['Target', 'Votes with the team'],
        bars: [...tally]
          .sort((a, b) => b[1].with - a[1].with || a[1].name.localeCompare(b[1].name))
          .map(([id, t]) => ({ label: t.name, value: t.with, text: `${t.with} of ${t.of} with the team`, href: `/people/${encodeURIComponent(id)}` })),
        note: targets.length
          ? 'Latest roll call of each bill the team has a stance on and a target list for.'
          : 'Add alderpersons to a bill’s target list to see how they voted.',
      };
    },
  };

  return {
    async chart(actor: Actor, input: ChartInput): Promise<ChartOut> {
      const teamId = policy.teamOf(actor);
      const settings = parseSettings(input.kind, input.settings) as S;
      return { kind: input.kind, ...(await kinds[input.kind](teamId, settings)) };
    },
    async scorecard(actor: Actor, input: ScorecardInput): Promise<ScorecardOut> {
      const teamId = policy.teamOf(actor);
      const positions = await prepo.allPositions(db, teamId);
      const stances = new Map<string, Stance>(positions.map((p) => [p.record_number, p.stance]));
      const scored = await scoredBills(stances);
      const byRecord = new Map(scored.map((s) => [s.rc.recordNumber.toLowerCase(), s]));
      const people = new Map<string, ScorecardOut['people'][number]>();
      const bills = positions
        .map((p) => {
          const s = byRecord.get(p.record_number.toLowerCase());
          const bill = {
            recordNumber: p.record_number,
            title: s?.rc.title ?? null,
            stance: p.stance,
            rollCall: null,
            yeas: 0,
            nays: 0,
            withStance: 0,
            againstStance: 0,
          };
          if (!s) return bill;
          const { rc } = s;
          for (const v of rc.votes) {
            const a = agrees(v.value, p.stance);
            const person = people.get(v.personId) ?? {
              personId: v.personId,
              name: v.name,
              ward: v.ward,
              withStance: 0,
              againstStance: 0,
              notVoting: 0,
              agreement: null,
              votes: [],
            };
            person.votes.push({ recordNumber: rc.recordNumber, rollCallId: rc.rollCallId, value: v.value, agrees: a });
            if (a === null) person.notVoting++;
            else if (a) person.withStance++;
            else person.againstStance++;
            people.set(v.personId, person);
          }
          const yeas = rc.votes.filter((v) => v.value === 'Yea').length;
          const nays = rc.votes.filter((v) => v.value === 'Nay').length;
          const rollCall = { id: rc.rollCallId, date: rc.date, actionName: rc.actionName, result: rc.result };
          return { ...bill, rollCall, yeas, nays, withStance: p.stance === 'supports' ? yeas : nays, againstStance: p.stance === 'supports' ? nays : yeas };
        })
        .sort((a, b) => a.recordNumber.localeCompare(b.recordNumber));
      for (const p of people.values()) {
        const cast = p.withStance + p.againstStance;
        p.agreement = cast ? p.withStance / cast : null;
      }
      return { bills, people: sortPeople([...people.values()], input.sort ?? '-agreement') };
    },
    /** The starter dashboard, made when the team has none; whether it was made now. */
    async starter(actor: Actor): Promise<{ created: boolean }> {
      const teamId = policy.teamOf(actor);
      const id = kit.newId('dash');
      const created = await repo.insertDashboardIfNone(db, {
        id,
        teamId,
        name: 'Our bills',
        layout: starterLayout,
        createdBy: actor.account.id,
        at: kit.clock.now(),
      });
      if (created) await kit.emit({ teamId, kind: 'dashboard', action: 'created', id });
      return { created };
    },
  };
}

type Person = ScorecardOut['people'][number];
function sortPeople(people: Person[], sort: NonNullable<ScorecardInput['sort']>): Person[] {
  const byName = (a: Person, b: Person) => a.name.localeCompare(b.name) || a.personId.localeCompare(b.personId);
  const agreement = (p: Person) => p.agreement ?? -1;
  const order: Record<typeof sort, (a: Person, b: Person) => number> = {
    '-agreement': (a, b) => agreement(b) - agreement(a) || byName(a, b),
    agreement: (a, b) => agreement(a) - agreement(b) || byName(a, b),
    name: byName,
    ward: (a, b) => (a.ward ?? 99) - (b.ward ?? 99) || byName(a, b),
    '-against': (a, b) => b.againstStance - a.againstStance || byName(a, b),
  };
  return people.sort(order[sort]);
}
