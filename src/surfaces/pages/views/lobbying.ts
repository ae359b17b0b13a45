// Lobbying pages: registered lobbyists, their clients and employers, and what each reported
// (engagements, compensation, expenditures, contributions and gifts to officials, contacts with officials).
import type { OperationOutput } from '../../../catalogue.ts';
import { LobbyistsQuery, OrganisationsQuery } from '../../../modules/public-data/schema-lobbying.ts';
import { type Block, day, facts, latest, link, money, type PageModel, paragraph, section, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { personLink } from './matters.ts';
import { pick } from './query.ts';

const enc = encodeURIComponent;
type Engagement = { lobbyistId: string; lobbyistName: string; employerId: string; employerName: string; clientId: string; clientName: string; year: number };

const engagements = (caption: string, rows: readonly Engagement[]) =>
  table(
    caption,
    ['Year', 'Lobbyist', 'Employer', 'Client'],
    rows.map((e) => [
      String(e.year),
      link(e.lobbyistName, `/lobbying/lobbyists/${enc(e.lobbyistId)}`),
      link(e.employerName, `/lobbying/employers/${enc(e.employerId)}`),
      link(e.clientName, `/lobbying/clients/${enc(e.clientId)}`),
    ]),
    'No engagements reported.',
  );

async function lobbyistPage(read: Reader, id: string): Promise<PageModel> {
  const l = await read('lobbying.lobbyists.read', { id });
  const [activity, contributions, gifts] = await Promise.all([
    read('lobbying.activity.list', { lobbyist: id, limit: 25 }),
    read('lobbying.contributions.list', { lobbyist: id, limit: 25 }),
    read('lobbying.gifts.list', { lobbyist: id, limit: 25 }),
  ]);
  return {
    title: l.name,
    description: `Registered lobbyist ${l.name}${l.organization ? ` (${l.organization})` : ''}: clients, employers, compensation, contributions and contacts with officials.`,
    path: `/lobbying/lobbyists/${enc(l.id)}`,
    updatedAt: latest(l.updatedAt, ...contributions.data.map((c) => c.updatedAt), ...gifts.data.map((g) => g.updatedAt)),
    feeds: [],
    blocks: [
      paragraph(`Lobbyist${l.current ? '' : ' (no longer registered)'}${l.organization ? ` employed by ${l.organization}` : ''}.`),
      facts([
        ['Compensation reported', `${money(l.totals.compensation.amount)} (${l.totals.compensation.count} reports)`],
        ['Expenditures reported', `${money(l.totals.expenditures.amount)} (${l.totals.expenditures.count})`],
        ['Contributions reported', `${money(l.totals.contributions.amount)} (${l.totals.contributions.count})`],
        ['Person page', link(l.name, `/people/${enc(l.id)}`)],
      ]),
      section('Clients and employers', [engagements('Engagements by year', l.engagements)]),
      section('Contacts with officials', [
        table(
          'Action sought from officials',
          ['Official', 'Client', 'Action sought', 'Period'],
          activity.data.map((a) => [
            personLink({ personId: a.officialPersonId, name: a.officialName ?? '—' }),
            a.clientId ? link(a.clientName ?? a.clientId, `/lobbying/clients/${enc(a.clientId)}`) : '—',
            a.actionSought ?? '—',
            `${day(a.periodStart)} to ${day(a.periodEnd)}`,
          ]),
          'No contacts with officials reported.',
        ),
      ]),
      section('Political contributions', [
        table(
          'Contributions reported',
          ['Date', 'Recipient', 'Amount'],
          contributions.data.map((c) => [
            day(c.date),
            c.recipientPersonId ? link(c.recipient, `/people/${enc(c.recipientPersonId)}`) : c.recipient,
            money(c.amount),
          ]),
          'No contributions reported.',
          [2],
        ),
      ]),
      section('Gifts to officials', [giftsTable('Gifts reported', gifts.data, 'recipient', 'No gifts reported.')]),
    ],
  };
}

type Gift = OperationOutput<'lobbying.gifts.list'>['data'][number];

/** Gifts as a table: by recipient (a lobbyist's page) or by lobbyist (an official's page). */
export function giftsTable(caption: string, gifts: readonly Gift[], by: 'recipient' | 'lobbyist', empty: string): Block {
  return table(
    caption,
    [by === 'recipient' ? 'Recipient' : 'Lobbyist', 'Gift', 'Period', 'Value'],
    gifts.map((g) => [
      by === 'recipient'
        ? g.recipientPersonId
          ? link(g.recipient, `/people/${enc(g.recipientPersonId)}`)
          : `${g.recipient}${g.recipientTitle ? ` (${g.recipientTitle})` : ''}`
        : link(g.lobbyistName, `/lobbying/lobbyists/${enc(g.lobbyistId)}`),
      g.description ?? '—',
      `${day(g.periodStart)} to ${day(g.periodEnd)}`,
      money(g.amount),
    ]),
    empty,
    [3],
  );
}

function organisationPage(kind: 'clients' | 'employers') {
  const opId = kind === 'clients' ? 'lobbying.clients.read' : 'lobbying.employers.read';
  const word = kind === 'clients' ? 'Lobbying client' : 'Lobbying employer';
  return async (read: Reader, id: string): Promise<PageModel> => {
    const o = await read(opId, { id });
    const place = [o.city, o.state, o.country].filter(Boolean).join(', ');
    return {
      title: o.name,
      description: `${word} ${o.name}${place ? ` (${place})` : ''}: the lobbyists and ${kind === 'clients' ? 'employers' : 'clients'} it appears with.`,
      path: `/lobbying/${kind}/${enc(o.id)}`,
      updatedAt: o.updatedAt,
      feeds: [],
      blocks: [
        paragraph(`${word}${place ? ` in ${place}` : ''}, in the disclosures of ${o.years.join(', ') || 'no year'}.`),
        facts([
          ['Place', place],
          ['Years', o.years.join(', ')],
        ]),
        section('Engagements', [engagements('Lobbyists, employers and clients by year', o.engagements)]),
      ],
    };
  };
}

const LobbyistsList = pick(LobbyistsQuery, ['q', 'client', 'employer', 'sort', 'cursor', 'limit']);
const OrgList = pick(OrganisationsQuery, ['q', 'year', 'lobbyist', 'sort', 'cursor', 'limit']);

const tabs = paragraph([
  'Browse: ',
  link('Lobbyists', '/lobbying'),
  ' · ',
  link('Clients', '/lobbying/clients'),
  ' · ',
  link('Employers', '/lobbying/employers'),
]);

async function lobbyistsList(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const page = await read('lobbying.lobbyists.list', query as never);
  return {
    title: 'Lobbying',
    description: 'Lobbyists registered with the City of Chicago Board of Ethics, their clients and employers.',
    path: withQuery('/lobbying', query),
    updatedAt: latest(...page.data.map((l) => l.updatedAt)),
    feeds: [],
    blocks: [
      paragraph('Lobbyists registered with the Board of Ethics, by name.'),
      tabs,
      { kind: 'form', action: '/lobbying', label: 'Find lobbyists', fields: [{ name: 'q', label: 'Name or employer', value: query.q ?? '', type: 'search' }] },
      table(
        'Lobbyists',
        ['Name', 'Employer', 'Registered now'],
        page.data.map((l) => [link(l.name, `/lobbying/lobbyists/${enc(l.id)}`), l.organization ?? '—', l.current ? 'yes' : 'no']),
        'No lobbyists match.',
      ),
      { kind: 'pager', next: page.meta.nextCursor ? withQuery('/lobbying', { ...query, cursor: page.meta.nextCursor }) : null },
    ],
  };
}

function organisationsList(kind: 'clients' | 'employers') {
  const opId = kind === 'clients' ? 'lobbying.clients.list' : 'lobbying.employers.list';
  const title = kind === 'clients' ? 'Lobbying clients' : 'Lobbying employers';
  return async (read: Reader, query: Record<string, any>): Promise<PageModel> => {
    const page = await read(opId, query as never);
    const path = `/lobbying/${kind}`;
    return {
      title,
      description: `${title} in the City of Chicago lobbying disclosures.`,
      path: withQuery(path, query),
      updatedAt: latest(...page.data.map((o) => o.updatedAt)),
      feeds: [],
      blocks: [
        paragraph(kind === 'clients' ? 'Those lobbyists work for, by name.' : 'Firms that employ lobbyists, by name.'),
        tabs,
        { kind: 'form', action: path, label: `Find ${kind}`, fields: [{ name: 'q', label: 'Name', value: query.q ?? '', type: 'search' }] },
        table(
          title,
          ['Name', 'Place', 'Years'],
          page.data.map((o) => [link(o.name, `${path}/${enc(o.id)}`), [o.city, o.state].filter(Boolean).join(', ') || '—', o.years.join(', ')]),
          `No ${kind} match.`,
        ),
        { kind: 'pager', next: page.meta.nextCursor ? withQuery(path, { ...query, cursor: page.meta.nextCursor }) : null },
      ],
    };
  };
}

export const lobbyingPages: PageDef[] = [
  { path: '/lobbying', query: LobbyistsList, build: (read, _p, q) => lobbyistsList(read, q) },
  { path: '/lobbying/lobbyists/:id', build: (read, p) => lobbyistPage(read, p.id!) },
  { path: '/lobbying/clients', query: OrgList, build: (read, _p, q) => organisationsList('clients')(read, q) },
  { path: '/lobbying/clients/:id', build: (read, p) => organisationPage('clients')(read, p.id!) },
  { path: '/lobbying/employers', query: OrgList, build: (read, _p, q) => organisationsList('employers')(read, q) },
  { path: '/lobbying/employers/:id', build: (read, p) => organisationPage('employers')(read, p.id!) },
];
