// Legislation pages: the list of matters with filters, one matter (status timeline, sponsors, roll
// calls drawn and tabled with every vote, meetings, documents, related lobbying, follower count),
// and one roll call.
import type { OperationOutput } from '../../../catalogue.ts';
import { MattersQuery, matterSortOf, RANKED_CANDIDATES } from '../../../modules/public-data/schema-legislation.ts';
import { searchQueryText } from '../../../modules/public-data/search-text.ts';
import { type Block, clip, day, facts, latest, type Link, link, list, type PageModel, paragraph, section, table, type Text, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { feeds } from './feeds.ts';
import { pick } from './query.ts';

type RollCall = OperationOutput<'roll-calls.list'>['data'][number];
interface VoteRow {
  personId: string;
  name: string;
  ward: number | null;
  value: string;
}

const matterLink = (m: { recordNumber: string; title?: string }, withTitle = false): Link =>
  link(withTitle && m.title ? `${m.recordNumber}: ${m.title}` : m.recordNumber, `/matters/${encodeURIComponent(m.recordNumber)}`);
export const personLink = (p: { personId: string | null; name: string }): Text =>
  p.personId ? link(p.name, `/people/${encodeURIComponent(p.personId)}`) : p.name;
const tallyNames = [
  ['yea', 'Yea'],
  ['nay', 'Nay'],
  ['absent', 'Absent'],
  ['notVoting', 'Not voting'],
  ['present', 'Present'],
  ['recused', 'Recused'],
  ['vacant', 'Vacant'],
  ['risingVote', 'Rising vote'],
] as const;

export const tallyLine = (t: RollCall['tallies']) => `${t.yea}–${t.nay}`;
const tallyTotal = (t: RollCall['tallies']) => tallyNames.reduce((n, [k]) => n + t[k], 0);

/**
 * How the tally and the votes listed by name relate: all reported, or how many the source's
 * published tally counts without saying who cast them (and, for a full council of 50, which
 * wards have no reported vote). Shown, never hidden or filled in.
 */
export function reportedLine(rc: RollCall, votes: readonly VoteRow[]): string {
  const total = tallyTotal(rc.tallies);
  const origin = rc.talliesPublished ? 'published tally' : 'tally counted from the votes';
  if (rc.votesReported >= total) return `All ${total} votes of the ${origin} are reported by name.`;
  const missing = total - rc.votesReported;
  const wards = new Set(votes.map((v) => v.ward));
  const unreported = total === 50 ? Array.from({ length: 50 }, (_, i) => i + 1).filter((w) => !wards.has(w)) : [];
  return (
    `${rc.votesReported} of the ${total} votes of the ${origin} are reported by name; ${missing} ${missing === 1 ? 'is' : 'are'} not reported ` +
    `(the source counts ${missing === 1 ? 'it' : 'them'} in the tally but does not list who cast ${missing === 1 ? 'it' : 'them'})` +
    `${unreported.length ? `: ward${unreported.length === 1 ? '' : 's'} ${unreported.join(', ')}` : ''}.`
  );
}

/** A roll call drawn as a chart of its tallies and tabled with every person's vote. */
export function rollCallBlocks(rc: RollCall, votes: readonly VoteRow[]): Block[] {
  const bars = tallyNames.filter(([k]) => rc.tallies[k] > 0).map(([k, label]) => ({ label, value: rc.tallies[k] }));
  return [
    paragraph([
      `${day(rc.date)} · ${rc.actionName}${rc.result && rc.result !== rc.actionName ? ` (${rc.result})` : ''} · ${tallyLine(rc.tallies)} · `,
      link('Roll call page', `/roll-calls/${encodeURIComponent(rc.id)}`),
    ]),
    paragraph(reportedLine(rc, votes)),
    { kind: 'chart', title: `Votes on ${rc.recordNumber ?? 'this roll call'}, ${day(rc.date)}`, bars, head: ['Vote', 'Alderpersons'] },
    table(
      `Every vote, ${day(rc.date)}`,
      ['Alderperson', 'Ward', 'Vote'],
      votes.map((v) => [personLink(v), v.ward === null ? '—' : String(v.ward), v.value]),
      'No individual votes were recorded.',
      [1],
    ),
  ];
}

/** Every vote on a matter, by roll call, in ward order (one query a page of 200 votes). */
async function votesOf(read: Reader, record: string): Promise<Map<string, VoteRow[]>> {
  const byRollCall = new Map<string, VoteRow[]>();
  let cursor: string | undefined;
  do {
    const page = await read('votes.list', { matter: record, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const v of page.data) {
      const list = byRollCall.get(v.rollCallId) ?? [];
      list.push({ personId: v.personId, name: v.personName, ward: v.ward, value: v.value });
      byRollCall.set(v.rollCallId, list);
    }
    cursor = page.meta.nextCursor ?? undefined;
  } while (cursor);
  for (const list of byRollCall.values()) list.sort((a, b) => (a.ward ?? 99) - (b.ward ?? 99) || a.name.localeCompare(b.name));
  return byRollCall;
}

async function matterPage(read: Reader, record: string): Promise<PageModel> {
  // One round trip in parallel: each read takes the record number as asked (any letter case).
  const [m, votes, followers, activity] = await Promise.all([
    read('matters.read', { record }),
    votesOf(read, record),
    read('followers.count.read', { type: 'legislation', refId: record }),
    read('lobbying.activity.list', { q: record, limit: 50 }),
  ]);
  const rollCalls = m.rollCalls;
  const bodyName = m.actions.find((a) => a.bodyId === m.controllingBodyId)?.bodyName ?? m.controllingBodyId;
  const meetings = new Map<string, { date: string | null; body: string | null }>();
  for (const a of m.actions) if (a.meetingId && !meetings.has(a.meetingId)) meetings.set(a.meetingId, { date: a.date, body: a.bodyName });
  for (const rc of m.rollCalls) if (rc.meetingId && !meetings.has(rc.meetingId)) meetings.set(rc.meetingId, { date: rc.date, body: null });
  const path = `/matters/${encodeURIComponent(m.recordNumber)}`;
  return {
    title: `${m.recordNumber}: ${clip(m.title, 120)}`,
    description: `${m.type} ${m.recordNumber}${m.status ? `, ${m.status}` : ''}${m.introductionDate ? `, introduced ${m.introductionDate}` : ''}: sponsors, actions, roll calls and documents.`,
    path,
    updatedAt: latest(m.updatedAt, ...rollCalls.map((r) => r.updatedAt)),
    feeds: [feeds.legislation],
    blocks: [
      paragraph(m.title),
      facts([
        ['Record number', m.recordNumber],
        ['Type', m.type],
        ['Status', m.status ?? 'Unknown'],
        ['Introduced', m.introductionDate],
        ['Final action', m.finalActionDate],
        ['Controlling body', m.controllingBodyId ? link(bodyName ?? m.controllingBodyId, `/bodies/${encodeURIComponent(m.controllingBodyId)}`) : null],
        ['Sponsors', m.sponsorNames || 'None recorded'],
        ['Topics', m.topics.join(', ')],
        ['Substitute of', m.substituteOf ? matterLink(m.substituteOf, true) : null],
        ['Followers', `${followers.count} ${followers.count === 1 ? 'person or team follows' : 'people and teams follow'} this record`],
        ['Official record', m.sourceUrl ? link('City Clerk', m.sourceUrl) : null],
      ]),
      section('Status timeline', [
        m.actions.length
          ? list(
              m.actions.map(
                (a): Text => [
                  `${day(a.date)} — ${a.bodyName ? `${a.bodyName}: ` : ''}${a.name}${a.result ? ` (${a.result})` : ''}`,
                  ...(a.meetingId ? [' · ', link('meeting', `/meetings/${encodeURIComponent(a.meetingId)}`)] : []),
                ],
              ),
              true,
            )
          : paragraph('No actions recorded yet.'),
      ]),
      section('Sponsors', [
        table(
          'Sponsors and co-sponsors',
          ['Name', 'Role'],
          m.sponsors.map((s) => [personLink(s), s.role.replace('_', ' ')]),
          'No sponsors recorded.',
        ),
      ]),
      section(
        'Roll calls',
        rollCalls.length
          ? rollCalls.map((rc) => section(`${rc.actionName}, ${day(rc.date)}: ${tallyLine(rc.tallies)}`, rollCallBlocks(rc, votes.get(rc.id) ?? [])))
          : [paragraph('No roll calls on this matter.')],
      ),
      section('Meetings where it came up', [
        meetings.size
          ? list([...meetings].map(([id, x]) => [link(`${day(x.date)}${x.body ? ` · ${x.body}` : ''}`, `/meetings/${encodeURIComponent(id)}`)]))
          : paragraph('No meetings recorded.'),
      ]),
      section('Documents', [
        m.attachments.length ? list(m.attachments.map((a) => [link(a.name, a.url), a.kind ? ` (${a.kind})` : ''])) : paragraph('No documents attached.'),
      ]),
      ...(m.substitutes.length || m.relatedRecordNumbers.length
        ? [
            section('Related legislation', [
              list([
                ...m.substitutes.map((s): Text => ['Substitute: ', matterLink(s, true)]),
                ...m.relatedRecordNumbers.map((r): Text => ['Related: ', matterLink({ recordNumber: r })]),
              ]),
            ]),
          ]
        : []),
      section('Related lobbying activity', [
        table(
          `Lobbying activity naming ${m.recordNumber}`,
          ['Lobbyist', 'Client', 'Official', 'Action sought', 'Period'],
          activity.data.map((a) => [
            link(a.lobbyistName, `/lobbying/lobbyists/${encodeURIComponent(a.lobbyistId)}`),
            a.clientId ? link(a.clientName ?? a.clientId, `/lobbying/clients/${encodeURIComponent(a.clientId)}`) : '—',
            personLink({ personId: a.officialPersonId, name: a.officialName ?? '—' }),
            a.actionSought ?? '—',
            `${day(a.periodStart)} to ${day(a.periodEnd)}`,
          ]),
          `No lobbying activity reported names ${m.recordNumber}.`,
        ),
      ]),
    ],
  };
}

async function rollCallPage(read: Reader, id: string): Promise<PageModel> {
  const rc = await read('roll-calls.read', { id });
  const about = rc.matter ? `${rc.matter.recordNumber}: ${rc.matter.title}` : rc.actionName;
  return {
    title: `Roll call: ${clip(about, 140)}`,
    description: `${rc.actionName} on ${day(rc.date)}, ${tallyLine(rc.tallies)}: every alderperson's vote.`,
    path: `/roll-calls/${encodeURIComponent(rc.id)}`,
    updatedAt: rc.updatedAt,
    feeds: [],
    blocks: [
      paragraph(rc.matter ? ['On ', matterLink(rc.matter, true)] : rc.actionName),
      facts([
        ['Date', day(rc.date)],
        ['Action', rc.actionName],
        ['Result', rc.result],
        ['Votes reported', `${rc.votesReported} of ${tallyTotal(rc.tallies)}`],
        ['Meeting', rc.meetingId ? link('the meeting', `/meetings/${encodeURIComponent(rc.meetingId)}`) : null],
      ]),
      ...rollCallBlocks(rc, rc.votes),
    ],
  };
}

const ListQuery = pick(MattersQuery, ['q', 'type', 'status', 'sponsor', 'body', 'introduced_from', 'introduced_to', 'sort', 'cursor', 'limit']);

/**
 * What the list shows, in the order the list operation gives it (matters.list: by relevance when
 * there are words, else newest first, unless `sort` says otherwise), so a search's caption does not
 * say "newest first" above results ranked by match.
 */
function listOrder(query: Record<string, any>): string {
  const sort = matterSortOf(query);
  switch (sort) {
    case 'relevance':
      // A search of spaces or stray operators alone has no word to match, so it matches nothing.
      if (searchQueryText(query.q ?? '') === '') {
        const typed = String(query.q ?? '').trim();
        return `${typed ? `“${typed}” has no word to search for` : 'The search is empty'}, so no matter matches: type words or a record number, or clear the search to list every matter.`;
      }
      return `Matters matching “${query.q}”, best match first: the ${RANKED_CANDIDATES} most recent matches are ranked by how well their titles, sponsors and topics match.`;
    case 'introduced':
      return 'Matters before the City Council, oldest first; search their titles, sponsors and topics.';
    case 'record':
    case '-record':
      return `Matters before the City Council, by record number${sort === '-record' ? ', last first' : ''}; search their titles, sponsors and topics.`;
    default:
      return 'Matters before the City Council, newest first; search their titles, sponsors and topics.';
  }
}

async function mattersList(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const page = await read('matters.list', query as never);
  return {
    title: 'Legislation',
    description: 'Ordinances, resolutions, orders, appointments and claims before the Chicago City Council, newest first.',
    path: withQuery('/matters', query),
    updatedAt: latest(...page.data.map((m) => m.updatedAt)),
    feeds: [feeds.legislation],
    blocks: [
      paragraph(listOrder(query)),
      {
        kind: 'form',
        action: '/matters',
        label: 'Filter legislation',
        fields: [
          { name: 'q', label: 'Words or record number', value: query.q ?? '', type: 'search' },
          { name: 'type', label: 'Type', value: query.type ?? '' },
          { name: 'status', label: 'Status', value: query.status ?? '' },
          { name: 'introduced_from', label: 'Introduced from', value: query.introduced_from ?? '', type: 'date' },
          { name: 'introduced_to', label: 'Introduced to', value: query.introduced_to ?? '', type: 'date' },
        ],
      },
      table(
        'Matters',
        ['Record', 'Title', 'Type', 'Status', 'Introduced'],
        page.data.map((m) => [matterLink(m), m.title, m.type, m.status ?? '—', day(m.introductionDate)]),
        'No matters match.',
      ),
      { kind: 'pager', next: page.meta.nextCursor ? withQuery('/matters', { ...query, cursor: page.meta.nextCursor }) : null },
    ],
  };
}

export const matterPages: PageDef[] = [
  { path: '/matters', query: ListQuery, build: (read, _p, q) => mattersList(read, q) },
  { path: '/matters/:record', build: (read, p) => matterPage(read, p.record!) },
  { path: '/roll-calls/:id', build: (read, p) => rollCallPage(read, p.id!) },
];
