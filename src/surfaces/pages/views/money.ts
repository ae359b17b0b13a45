// Campaign money pages: aldermanic committees with the money received by year, and one committee
// with its totals, money by year, top contributors and latest receipts.
import { CommitteesQuery } from '../../../modules/public-data/schema-money.ts';
import { day, facts, latest, link, money, type PageModel, paragraph, section, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { pick } from './query.ts';

const enc = encodeURIComponent;

const byYear = (title: string, totals: { data: { period: string; receipts: { amount: string } }[] }) =>
  ({
    kind: 'chart',
    title,
    head: ['Year', 'Received'],
    bars: totals.data.map((t) => ({ label: t.period, value: Number(t.receipts.amount), text: money(t.receipts.amount) })),
  }) as const;

async function committeePage(read: Reader, id: string): Promise<PageModel> {
  const c = await read('money.committees.read', { id });
  const [totals, top, receipts] = await Promise.all([
    read('money.totals.read', { committee: id, period: 'year' }),
    read('money.contributors.read', { committee: id, limit: 15 }),
    read('money.receipts.list', { committee: id, limit: 25 }),
  ]);
  return {
    title: c.name,
    description: `Campaign committee ${c.name}${c.personName ? ` of ${c.personName}` : ''}: money received by year, top contributors and latest receipts.`,
    path: `/money/committees/${enc(c.id)}`,
    updatedAt: latest(c.updatedAt, ...receipts.data.map((r) => r.updatedAt)),
    feeds: [],
    blocks: [
      paragraph(
        `${money(c.receipts.amount)} received in ${c.receipts.count} receipts${c.receipts.firstDate ? ` from ${c.receipts.firstDate} to ${c.receipts.lastDate}` : ''}.`,
      ),
      facts([
        ['Alderperson', c.personId ? link(c.personName ?? c.personId, `/people/${enc(c.personId)}`) : null],
        ['Ward', c.ward === null ? null : link(`Ward ${c.ward}`, `/wards/${c.ward}`)],
        ['State Board of Elections id', c.isbeId],
        ['Received', `${money(c.receipts.amount)} (${c.receipts.count} receipts)`],
        ['Spent', `${money(c.expenditures.amount)} (${c.expenditures.count} expenditures)`],
      ]),
      section('Money received by year', [byYear(`Money received by ${c.name}, by year`, totals)]),
      section('Top contributors', [
        table(
          'Top contributors by total given',
          ['Contributor', 'Receipts', 'Total', 'First', 'Latest'],
          top.data.map((x) => [x.contributor, String(x.count), money(x.amount), day(x.firstDate), day(x.lastDate)]),
          'No receipts on record.',
          [1, 2],
        ),
      ]),
      section('Latest receipts', [
        table(
          'Latest receipts',
          ['Date', 'Contributor', 'Type', 'Employer', 'Amount'],
          receipts.data.map((r) => [r.date, r.contributor, r.contributorType ?? '—', r.employer ?? '—', money(r.amount)]),
          'No receipts on record.',
          [4],
        ),
      ]),
    ],
  };
}

const ListQuery = pick(CommitteesQuery, ['person', 'ward', 'sort', 'cursor', 'limit']);

async function moneyHome(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const [page, totals] = await Promise.all([read('money.committees.list', { sort: 'ward', ...query } as never), read('money.totals.read', { period: 'year' })]);
  return {
    title: 'Campaign money',
    description: "Campaign committees of Chicago's alderpersons and the money they received, from Illinois State Board of Elections data.",
    path: withQuery('/money', query),
    updatedAt: latest(...page.data.map((c) => c.updatedAt)),
    feeds: [],
    blocks: [
      paragraph('Aldermanic campaign committees and what they received, from the Illinois State Board of Elections.'),
      section('All committees', [byYear('Money received by all aldermanic committees, by year', totals)]),
      section('Committees', [
        table(
          'Campaign committees by ward',
          ['Committee', 'Alderperson', 'Ward'],
          page.data.map((c) => [
            link(c.name, `/money/committees/${enc(c.id)}`),
            c.personId ? link(c.personName ?? c.personId, `/people/${enc(c.personId)}`) : '—',
            c.ward === null ? '—' : String(c.ward),
          ]),
          'No committees on record.',
          [2],
        ),
        { kind: 'pager', next: page.meta.nextCursor ? withQuery('/money', { ...query, cursor: page.meta.nextCursor }) : null },
      ]),
    ],
  };
}

export const moneyPages: PageDef[] = [
  { path: '/money', query: ListQuery, build: (read, _p, q) => moneyHome(read, q) },
  { path: '/money/committees/:id', build: (read, p) => committeePage(read, p.id!) },
];
