// People pages: alderpersons, officials and lobbyists; one person with ward, terms, committees,
// voting record (attendance, agreement with the council majority), sponsored legislation and how
// far it got, campaign money (by year, top contributors) and lobbying contacts.
import { PeopleQuery, publicPersonKinds } from '../../../modules/public-data/schema-people.ts';
import { type Block, day, facts, type Inline, latest, link, type PageModel, paragraph, percent, section, table, withQuery } from '../model.ts';
import { money } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { feeds } from './feeds.ts';
import { historySection } from './history.ts';
import { giftsTable } from './lobbying.ts';
import { pick } from './query.ts';
import { wardFigure } from './ward-figure.ts';

/** A person's kind as pages name it (the search page's detail of a person too). */
export const kindLabel = { alderperson: 'Alderperson', official: 'Official', lobbyist: 'Lobbyist' } as const;
const enc = encodeURIComponent;

/** "Chair of …; vice chair of …; member of N other committees." for the current memberships, if any. */
function committeeRoles(memberships: readonly { bodyId: string; bodyName: string; role: string; endDate: string | null }[]): Block[] {
  const now = memberships.filter((m) => m.endDate === null && !/^city council$/i.test(m.bodyName));
  if (!now.length) return [];
  const parts: Inline[][] = [];
  for (const [role, label] of [
    ['Chair', 'Chair'],
    ['Vice Chair', 'Vice chair'],
  ] as const) {
    const of = now.filter((m) => m.role === role);
    if (of.length) parts.push([`${label} of `, ...of.flatMap((m, n): Inline[] => [...(n ? [', '] : []), link(m.bodyName, `/bodies/${enc(m.bodyId)}`)])]);
  }
  const others = now.filter((m) => m.role !== 'Chair' && m.role !== 'Vice Chair').length;
  if (others) parts.push([`${parts.length ? 'member' : 'Member'} of ${others} ${parts.length ? 'other ' : ''}${others === 1 ? 'committee' : 'committees'}`]);
  return [paragraph([...parts.flatMap((p, n) => (n ? ['; ', ...p] : p)), '.'])];
}

async function moneyBlocks(read: Reader, id: string): Promise<Block[]> {
  const committees = await read('money.committees.list', { person: id, limit: 50 });
  if (!committees.data.length) return [paragraph('No campaign committee on record.')];
  const [totals, top] = await Promise.all([
    read('money.totals.read', { person: id, period: 'year' }),
    read('money.contributors.read', { person: id, limit: 10 }),
  ]);
  return [
    paragraph(['Committees: ', ...committees.data.flatMap((c, n) => [n ? ', ' : '', link(c.name, `/money/committees/${enc(c.id)}`)])]),
    {
      kind: 'chart',
      title: 'Campaign money received by year',
      head: ['Year', 'Received'],
      bars: totals.data.map((t) => ({ label: t.period, value: Number(t.receipts.amount), text: money(t.receipts.amount) })),
    },
    table(
      'Top contributors',
      ['Contributor', 'Receipts', 'Total'],
      top.data.map((c) => [c.contributor, String(c.count), money(c.amount)]),
      'No receipts on record.',
      [1, 2],
    ),
  ];
}

async function personPage(read: Reader, id: string): Promise<PageModel> {
  const p = await read('people.public.read', { id });
  const [record, votes, sponsored, activity, contributions, gifts, moneyPart, map, history] = await Promise.all([
    read('people.public.record.read', { id }),
    read('votes.list', { person: id, limit: 25 }),
    read('matters.list', { sponsor: id, limit: 25 }),
    read('lobbying.activity.list', { official: id, limit: 25 }),
    read('lobbying.contributions.list', { official: id, limit: 25 }),
    read('lobbying.gifts.list', { official: id, limit: 25 }),
    p.kind === 'alderperson' ? moneyBlocks(read, id) : Promise.resolve([]),
    p.kind === 'alderperson' ? wardFigure(read, p.ward) : Promise.resolve(undefined),
    p.kind === 'alderperson' ? historySection(read, { person: id }) : Promise.resolve(null),
  ]);
  const v = record.votes;
  const label = kindLabel[p.kind];
  const ward = p.ward === null ? null : link(`Ward ${p.ward}`, `/wards/${p.ward}`);
  return {
    title: `${p.name}${p.ward === null ? '' : `, Ward ${p.ward}`}`,
    description: `${label} ${p.name}${p.ward === null ? '' : ` (Ward ${p.ward})`}: terms, committees, votes, sponsored legislation, campaign money and lobbying contacts.`,
    path: `/people/${enc(p.id)}`,
    updatedAt: latest(p.updatedAt, ...votes.data.map((x) => x.updatedAt), ...sponsored.data.map((m) => m.updatedAt)),
    feeds: [feeds.personVotes(p.id, p.name)],
    ...(map ? { figure: map } : {}),
    blocks: [
      paragraph(`${label}${p.current ? '' : ' (former)'}${p.ward === null ? '' : ` of Ward ${p.ward}`}${p.organization ? `, ${p.organization}` : ''}.`),
      facts([
        ['Kind', label],
        ['Ward', ward],
        ['In office or registered now', p.current ? 'Yes' : 'No'],
        ['Organization', p.organization],
        ['Email', p.email ? link(p.email, `mailto:${p.email}`) : null],
        ['Phone', p.phone],
        ['Website', p.website ? link(p.website, p.website) : null],
        ['Lobbying disclosures', p.kind === 'lobbyist' ? link('Lobbyist record', `/lobbying/lobbyists/${enc(p.id)}`) : null],
        ['Official record', p.sourceUrl ? link('Source', p.sourceUrl) : null],
      ]),
      section('Terms', [
        table(
          'Terms of office',
          ['Office', 'Ward', 'From', 'To'],
          p.terms.map((t) => [t.office, t.ward === null ? '—' : String(t.ward), day(t.startDate), t.endDate ? day(t.endDate) : 'serving']),
          'No terms recorded.',
        ),
      ]),
      section('Committees', [
        ...committeeRoles(p.memberships),
        table(
          'Committee memberships',
          ['Body', 'Role', 'From', 'To'],
          p.memberships.map((m) => [link(m.bodyName, `/bodies/${enc(m.bodyId)}`), m.role, day(m.startDate), m.endDate ? day(m.endDate) : 'now']),
          'No committee memberships recorded.',
        ),
      ]),
      ...(history ? [history] : []),
      section('Voting record', [
        facts([
          ['Roll calls', `${v.total}${v.firstDate ? ` (${v.firstDate} to ${v.lastDate})` : ''}`],
          ['Attendance', `${percent(v.attendance)} (${v.absent} absent or not voting)`],
          ['With the council majority', `${percent(v.alignment)} (${v.withMajority} of ${v.decided} decided Yea or Nay votes)`],
          ['In the minority', `${v.inMinority} of ${v.decided} decided Yea or Nay votes`],
          ['Compared with the council', link('The council compared', '/council/compare')],
        ]),
        {
          kind: 'chart',
          title: `How ${p.name} voted`,
          head: ['Vote', 'Roll calls'],
          bars: [
            { label: 'Yea', value: v.yea },
            { label: 'Nay', value: v.nay },
            { label: 'Absent or not voting', value: v.absent },
            { label: 'Other', value: v.other },
          ].filter((b) => b.value > 0),
        },
        table(
          'Latest votes',
          ['Date', 'Matter', 'Action', 'Vote'],
          votes.data.map((x) => [
            x.date,
            x.recordNumber ? link(x.recordNumber, `/matters/${enc(x.recordNumber)}`) : '—',
            link(x.actionName, `/roll-calls/${enc(x.rollCallId)}`),
            x.value,
          ]),
          'No votes recorded.',
        ),
      ]),
      section('Who votes most like them', [
        table(
          `Agreement with ${p.name} over the roll calls both attended`,
          ['Alderperson', 'Ward', 'Agreement', 'Roll calls both attended'],
          record.mostAlike.map((a) => [
            link(a.name, `/people/${enc(a.personId)}`),
            a.ward === null ? '—' : String(a.ward),
            `${percent(a.agreement)} (${a.agreed} the same)`,
            String(a.together),
          ]),
          'Not enough roll calls attended together to compare.',
          [1, 2, 3],
        ),
      ]),
      section('Sponsored legislation', [
        {
          kind: 'chart',
          title: 'How far sponsored legislation got (current status)',
          head: ['Status', 'Matters'],
          bars: record.sponsored.map((s) => ({ label: s.status, value: s.count })),
        },
        table(
          'Latest sponsored matters',
          ['Record', 'Title', 'Status', 'Introduced'],
          sponsored.data.map((m) => [link(m.recordNumber, `/matters/${enc(m.recordNumber)}`), m.title, m.status ?? '—', day(m.introductionDate)]),
          'No sponsored legislation recorded.',
        ),
      ]),
      ...(p.kind === 'alderperson' ? [section('Campaign money', moneyPart)] : []),
      section('Lobbying contacts', [
        table(
          'Lobbyists who reported seeking action from this person',
          ['Lobbyist', 'Client', 'Action sought', 'Period'],
          activity.data.map((a) => [
            link(a.lobbyistName, `/lobbying/lobbyists/${enc(a.lobbyistId)}`),
            a.clientId ? link(a.clientName ?? a.clientId, `/lobbying/clients/${enc(a.clientId)}`) : '—',
            a.actionSought ?? '—',
            `${day(a.periodStart)} to ${day(a.periodEnd)}`,
          ]),
          'No lobbying contacts reported.',
        ),
        table(
          'Contributions lobbyists reported to this person',
          ['Lobbyist', 'Recipient', 'Date', 'Amount'],
          contributions.data.map((c) => [link(c.lobbyistName, `/lobbying/lobbyists/${enc(c.lobbyistId)}`), c.recipient, day(c.date), money(c.amount)]),
          'No contributions from lobbyists reported.',
          [3],
        ),
        giftsTable('Gifts lobbyists reported giving to this person', gifts.data, 'lobbyist', 'No gifts from lobbyists reported.'),
      ]),
    ],
  };
}

const ListQuery = pick(PeopleQuery, ['q', 'kind', 'ward', 'current', 'body', 'sort', 'cursor', 'limit']);

async function peopleList(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const kind = query.kind ?? 'alderperson';
  const q = { sort: kind === 'alderperson' ? 'ward' : 'name', ...query, kind };
  const page = await read('people.public.list', q as never);
  return {
    title: 'People',
    description: 'Alderpersons of the Chicago City Council by ward, City officials and registered lobbyists.',
    path: withQuery('/people', query),
    updatedAt: latest(...page.data.map((x) => x.updatedAt)),
    feeds: [],
    blocks: [
      paragraph(['Alderpersons by ward; choose officials or lobbyists below, or see ', link('the council compared', '/council/compare'), ' side by side.']),
      {
        kind: 'form',
        action: '/people',
        label: 'Find people',
        fields: [
          { name: 'q', label: 'Name', value: query.q ?? '', type: 'search' },
          { name: 'kind', label: 'Kind', value: q.kind, options: publicPersonKinds.map((k) => [k, kindLabel[k]] as const) },
        ],
      },
      table(
        'People',
        ['Name', 'Ward', 'Kind', 'Current'],
        page.data.map((x) => [link(x.name, `/people/${enc(x.id)}`), x.ward === null ? '—' : String(x.ward), kindLabel[x.kind], x.current ? 'yes' : 'no']),
        'No people match.',
        [1],
      ),
      { kind: 'pager', next: page.meta.nextCursor ? withQuery('/people', { ...query, cursor: page.meta.nextCursor }) : null },
    ],
  };
}

export const peoplePages: PageDef[] = [
  { path: '/people', query: ListQuery, build: (read, _p, q) => peopleList(read, q) },
  { path: '/people/:id', build: (read, p) => personPage(read, p.id!) },
];
