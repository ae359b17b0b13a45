// The data behind each analytics widget kind, read from the public data: a bill's latest roll
// call, an alderperson's voting record, meeting attendance, campaign money by period and lobbying
// compensation by client. Each read is bounded (a few pages at most) so a page stays quick.
import type { AppContext } from '../../context.ts';
import type { schemas } from '../../modules/public-data/index.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { type Bar, type Chart, dollars } from './charts.ts';
import { all } from './viewer.ts';

type Widget = teamSchemas.LayoutValue['widgets'][number];
type S = Record<string, string | number | undefined>;

const count = (values: string[]): Bar[] => {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([label, value]) => ({ label, value }));
};
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const range = (s: S) => ({ ...(str(s.from) ? { from: str(s.from) } : {}), ...(str(s.to) ? { to: str(s.to) } : {}) });
const during = (s: S) => (s.from || s.to ? ` (${s.from ?? '…'} to ${s.to ?? '…'})` : '');

export function widgetCharts(ctx: AppContext) {
  const pd = ctx.services.publicData;
  const personName = async (id: string) => (await pd.people.get(id)).name;

  const kinds: Record<Widget['kind'], (s: S) => Promise<Chart>> = {
    async roll_call(s) {
      const record = String(s.recordNumber);
      const calls = await pd.rollCalls.list({ matter: record, sort: '-date', limit: 1 });
      const rc = calls.data[0];
      if (!rc) return { title: `Roll call on ${record}`, bars: [], note: 'No roll call is recorded for this bill.' };
      const t = rc.tallies;
      const bars = [
        { label: 'Yea', value: t.yea },
        { label: 'Nay', value: t.nay },
        { label: 'Absent', value: t.absent },
        { label: 'Not voting', value: t.notVoting },
        { label: 'Present', value: t.present },
        { label: 'Recused', value: t.recused },
      ];
      return { title: `Roll call on ${record}, ${rc.date}: ${rc.actionName}${rc.result ? ` (${rc.result})` : ''}`, bars };
    },
    async voting_record(s) {
      const person = String(s.personId);
      const name = await personName(person);
      let pages = 0;
      const votes = await all<schemas.VoteOut>((cursor) => {
        if (++pages > 5) return Promise.resolve({ data: [], meta: { nextCursor: null } });
        return pd.votes.list({ person, ...range(s), limit: 200, cursor });
      });
      return { title: `Voting record of ${name}${during(s)}`, bars: count(votes.map((x) => x.value)), note: `${votes.length} votes.` };
    },
    async attendance(s) {
      const body = str(s.bodyId);
      const person = str(s.personId);
      const meetings = await pd.meetings.list({ ...(body ? { body } : {}), ...range(s), sort: '-date', limit: 20 });
      const values: string[] = [];
      let held = 0;
      for (const m of meetings.data) {
        const detail = await pd.meetings.get(m.id);
        if (detail.attendance.length) held++;
        for (const a of detail.attendance) if (!person || a.personId === person) values.push(a.value);
      }
      const who = person ? await personName(person) : 'all members';
      return {
        title: `Attendance of ${who}${during(s)}`,
        bars: count(values),
        note: `From the latest ${meetings.data.length} meetings (${held} with attendance taken).`,
      };
    },
    async money_by_period(s) {
      const period = (str(s.period) ?? 'year') as 'year';
      const totals = await pd.money.totals({
        period,
        ...(str(s.committeeId) ? { committee: str(s.committeeId) } : {}),
        ...(typeof s.ward === 'number' ? { ward: s.ward } : {}),
      });
      const rows = totals.data.slice(-16);
      const who = str(s.committeeId) ?? (s.ward ? `ward ${s.ward}` : 'all committees');
      return {
        title: `Campaign receipts by ${period}, ${who}`,
        bars: rows.map((r) => ({ label: r.period, value: Number(r.receipts.amount), text: dollars(Number(r.receipts.amount)) })),
        ...(rows.length ? {} : { note: 'No receipts recorded.' }),
      };
    },
    async lobbying_by_client(s) {
      const client = str(s.clientId);
      const year = typeof s.year === 'number' ? s.year : undefined;
      let pages = 0;
      const rows = await all<{ clientName: string | null; lobbyistName: string; amount: string }>((cursor) => {
        if (++pages > 5) return Promise.resolve({ data: [], meta: { nextCursor: null } });
        return pd.lobbying.compensation.list({
          ...(client ? { client } : {}),
          ...(year ? { from: `${year}-01-01`, to: `${year}-12-31` } : {}),
          limit: 200,
          cursor,
        });
      });
      const sums = new Map<string, number>();
      for (const r of rows) {
        const key = client ? r.lobbyistName : (r.clientName ?? 'Unnamed client');
        sums.set(key, (sums.get(key) ?? 0) + Number(r.amount));
      }
      const bars = [...sums]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([label, value]) => ({ label, value, text: dollars(value) }));
      const title = client ? `Lobbying compensation for ${rows[0]?.clientName ?? client}, by lobbyist` : 'Lobbying compensation by client';
      return { title: `${title}${year ? `, ${year}` : ''}`, bars, note: `${rows.length} compensation reports.` };
    },
  };

  return (w: Widget): Promise<Chart> => kinds[w.kind](w.settings as S);
}
