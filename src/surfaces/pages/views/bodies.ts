// Committee pages: the council and its committees, and one body with its members, meetings,
// the legislation it holds and its roll calls.
import { BodiesQuery } from '../../../modules/public-data/schema-people.ts';
import { day, facts, latest, link, type PageModel, paragraph, section, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { feeds } from './feeds.ts';
import { historySection } from './history.ts';
import { tallyLine } from './matters.ts';
import { meetingLink } from './meetings.ts';
import { pick } from './query.ts';

const enc = encodeURIComponent;
/** A body's kind as pages name it (the search page's detail of a committee too). */
export const bodyKinds = { council: 'City Council', committee: 'Committee', joint_committee: 'Joint committee', other: 'Other body' } as const;

async function bodyPage(read: Reader, id: string): Promise<PageModel> {
  const b = await read('bodies.read', { id });
  const [meetings, matters, rollCalls, history] = await Promise.all([
    read('meetings.list', { body: id, limit: 20 }),
    read('matters.list', { body: id, limit: 20 }),
    read('roll-calls.list', { body: id, limit: 20 }),
    historySection(read, { body: id }),
  ]);
  const current = b.members.filter((m) => m.endDate === null);
  const holding = (role: string) => {
    const who = current.filter((m) => m.role === role);
    return who.length
      ? who.flatMap((m, n) => [n ? ', ' : '', link(`${m.name}${m.ward === null ? '' : ` (Ward ${m.ward})`}`, `/people/${enc(m.personId)}`)])
      : null;
  };
  return {
    title: b.name,
    description: `${b.name} (${bodyKinds[b.kind]}): members, meetings, legislation it holds and its roll calls.`,
    path: `/bodies/${enc(b.id)}`,
    updatedAt: latest(b.updatedAt, ...meetings.data.map((m) => m.updatedAt), ...matters.data.map((m) => m.updatedAt)),
    feeds: [feeds.bodyActions(b.id, b.name)],
    blocks: [
      paragraph(`${bodyKinds[b.kind]}${b.active ? '' : ' (no longer active)'} with ${current.length} current ${current.length === 1 ? 'member' : 'members'}.`),
      facts([
        ['Kind', bodyKinds[b.kind]],
        ['Chair', holding('Chair')],
        ['Vice chair', holding('Vice Chair')],
        ['Abbreviation', b.abbreviation],
        ['Active', b.active ? 'Yes' : 'No'],
        ['Official record', b.sourceUrl ? link('Source', b.sourceUrl) : null],
      ]),
      section('Members', [
        table(
          'Everyone recorded on this body, with their role and dates (a current member’s runs to “now”)',
          ['Name', 'Ward', 'Role', 'From', 'To'],
          b.members.map((m) => [
            link(m.name, `/people/${enc(m.personId)}`),
            m.ward === null ? '—' : String(m.ward),
            m.role,
            day(m.startDate),
            m.endDate ? day(m.endDate) : 'now',
          ]),
          'No members recorded.',
          [1],
        ),
      ]),
      history,
      section('Meetings', [
        table(
          'Latest meetings',
          ['Meeting', 'Status'],
          meetings.data.map((m) => [meetingLink(m), m.status]),
          'No meetings recorded.',
        ),
        paragraph(link('All meetings of this body', withQuery('/meetings', { body: b.id }))),
      ]),
      section('Legislation it holds', [
        table(
          'Matters controlled by this body, newest first',
          ['Record', 'Title', 'Status', 'Introduced'],
          matters.data.map((m) => [link(m.recordNumber, `/matters/${enc(m.recordNumber)}`), m.title, m.status ?? '—', day(m.introductionDate)]),
          'No matters held by this body.',
        ),
      ]),
      section('Roll calls', [
        table(
          'Latest roll calls',
          ['Date', 'Matter', 'Action', 'Yea–Nay'],
          rollCalls.data.map((r) => [
            r.date,
            r.recordNumber ? link(r.recordNumber, `/matters/${enc(r.recordNumber)}`) : '—',
            link(r.actionName, `/roll-calls/${enc(r.id)}`),
            tallyLine(r.tallies),
          ]),
          'No roll calls recorded.',
        ),
      ]),
    ],
  };
}

const ListQuery = pick(BodiesQuery, ['q', 'kind', 'active', 'sort', 'cursor', 'limit']);

async function bodiesList(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const page = await read('bodies.list', query as never);
  return {
    title: 'Council and committees',
    description: 'The Chicago City Council and its committees.',
    path: withQuery('/bodies', query),
    updatedAt: latest(...page.data.map((b) => b.updatedAt)),
    feeds: [],
    blocks: [
      paragraph('The City Council and its committees, by name.'),
      table(
        'Bodies',
        ['Name', 'Kind', 'Active'],
        page.data.map((b) => [link(b.name, `/bodies/${enc(b.id)}`), bodyKinds[b.kind], b.active ? 'yes' : 'no']),
        'No bodies match.',
      ),
      { kind: 'pager', next: page.meta.nextCursor ? withQuery('/bodies', { ...query, cursor: page.meta.nextCursor }) : null },
    ],
  };
}

export const bodyPages: PageDef[] = [
  { path: '/bodies', query: ListQuery, build: (read, _p, q) => bodiesList(read, q) },
  { path: '/bodies/:id', build: (read, p) => bodyPage(read, p.id!) },
];
