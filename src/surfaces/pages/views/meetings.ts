// Meeting pages: the list with filters, and one meeting with its agenda, attendance, documents and
// video, roll calls, insights and public testimony (public speakers named; residents counted, never named).
import { MeetingsQuery, meetingStatuses } from '../../../modules/public-data/schema-meetings.ts';
import { chicagoTime, facts, type Inline, latest, link, list, type PageModel, paragraph, section, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { feeds } from './feeds.ts';
import { personLink, tallyLine } from './matters.ts';
import { pick } from './query.ts';

export const meetingLink = (m: { id: string; bodyName: string; startTime: string }) =>
  link(`${chicagoTime(m.startTime)} · ${m.bodyName}`, `/meetings/${encodeURIComponent(m.id)}`);

async function meetingPage(read: Reader, id: string): Promise<PageModel> {
  const m = await read('meetings.read', { id });
  const named = m.testimony.length;
  const residents = m.insights.testimony.total - named;
  const i = m.insights;
  return {
    title: `${m.bodyName}, ${chicagoTime(m.startTime).slice(0, 10)}`,
    description: `${m.bodyName} meeting of ${chicagoTime(m.startTime)} (${m.status}): agenda, attendance, roll calls, documents and testimony.`,
    path: `/meetings/${encodeURIComponent(m.id)}`,
    updatedAt: m.updatedAt,
    feeds: [feeds.meetings, ...(m.bodyId ? [feeds.bodyActions(m.bodyId, m.bodyName)] : [])],
    blocks: [
      paragraph(`${m.bodyName} · ${chicagoTime(m.startTime)} · ${m.status}${m.location ? ` · ${m.location}` : ''}`),
      facts([
        ['Body', m.bodyId ? link(m.bodyName, `/bodies/${encodeURIComponent(m.bodyId)}`) : m.bodyName],
        ['Starts', chicagoTime(m.startTime)],
        ['Status', m.statusDetail ?? m.status],
        ['Location', m.location],
        ['Note', m.comment],
        ['Video', m.videoUrl ? link('Watch the recording', m.videoUrl) : 'No video recorded'],
        ['Transcript', m.transcriptUrl ? link('Transcript', m.transcriptUrl) : null],
        ['Official record', m.sourceUrl ? link('City Clerk', m.sourceUrl) : null],
      ]),
      section('Insights', [
        facts([
          ['Agenda items', String(i.agendaItems)],
          ['Matters on the agenda', String(i.matters)],
          ['Roll calls', `${i.rollCalls} (${i.splitVotes} split)`],
          ['Attendance', `${i.present} present, ${i.absent} absent`],
          [
            'Absent',
            i.absentees.length ? i.absentees.flatMap((a, n): Inline[] => [n ? ', ' : '', link(a.name, `/people/${encodeURIComponent(a.personId)}`)]) : null,
          ],
          ['Testimony', `${i.testimony.total} (${i.testimony.supports} supporting, ${i.testimony.opposes} opposing, ${i.testimony.neutral} neutral)`],
        ]),
      ]),
      section('Agenda', [
        table(
          'Agenda items in order',
          ['#', 'Matter', 'Title', 'Action'],
          m.agenda.map((a) => [
            String(a.sort),
            a.matter ? link(a.matter.recordNumber, `/matters/${encodeURIComponent(a.matter.recordNumber)}`) : (a.recordNumber ?? '—'),
            a.matter?.title ?? a.title ?? '—',
            a.actionText ?? a.minutesNote ?? '—',
          ]),
          'No agenda published.',
          [0],
        ),
      ]),
      section('Attendance', [
        table(
          'Roll of attendance',
          ['Name', 'Ward', 'Attendance'],
          m.attendance.map((a) => [personLink(a), a.ward === null ? '—' : String(a.ward), a.value]),
          'No attendance recorded.',
          [1],
        ),
      ]),
      section('Roll calls', [
        table(
          'Roll calls at this meeting',
          ['Matter', 'Action', 'Yea–Nay'],
          m.rollCalls.map((r) => [
            r.recordNumber ? link(r.recordNumber, `/matters/${encodeURIComponent(r.recordNumber)}`) : '—',
            link(r.actionName, `/roll-calls/${encodeURIComponent(r.id)}`),
            tallyLine(r.tallies),
          ]),
          'No roll calls recorded.',
        ),
      ]),
      section('Documents', [
        m.documents.length ? list(m.documents.map((d) => [link(d.name, d.url), d.kind ? ` (${d.kind})` : ''])) : paragraph('No documents published.'),
      ]),
      section('Public testimony', [
        table(
          'Testimony by officials, staff and lobbyists',
          ['Speaker', 'Capacity', 'Organization', 'Position', 'Summary'],
          m.testimony.map((t) => [t.speakerName, t.speakerKind, t.organization ?? '—', t.position ?? '—', t.summary ?? '—']),
          'No testimony by officials, staff or lobbyists.',
        ),
        paragraph(
          residents > 0
            ? `${residents} ${residents === 1 ? 'resident or community representative' : 'residents and community representatives'} also testified; they are counted here, never named.`
            : 'No residents testified.',
        ),
      ]),
    ],
  };
}

const ListQuery = pick(MeetingsQuery, ['q', 'body', 'status', 'from', 'to', 'sort', 'cursor', 'limit']);

async function meetingsList(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const page = await read('meetings.list', query as never);
  return {
    title: 'Meetings',
    description: 'Meetings of the Chicago City Council and its committees, newest first, with agendas, attendance and video.',
    path: withQuery('/meetings', query),
    updatedAt: latest(...page.data.map((m) => m.updatedAt)),
    feeds: [feeds.meetings],
    blocks: [
      paragraph('Meetings of the City Council and its committees, newest first. Dates are days in Chicago.'),
      {
        kind: 'form',
        action: '/meetings',
        label: 'Filter meetings',
        fields: [
          { name: 'q', label: 'Words', value: query.q ?? '', type: 'search' },
          { name: 'status', label: 'Status', value: query.status ?? '', options: [['', 'Any'], ...meetingStatuses.map((s) => [s, s] as const)] },
          { name: 'from', label: 'From', value: query.from ?? '', type: 'date' },
          { name: 'to', label: 'To', value: query.to ?? '', type: 'date' },
        ],
      },
      table(
        'Meetings',
        ['Meeting', 'Status', 'Location', 'Video'],
        page.data.map((m) => [meetingLink(m), m.status, m.location ?? '—', m.videoUrl ? link('Video', m.videoUrl) : '—']),
        'No meetings match.',
      ),
      { kind: 'pager', next: page.meta.nextCursor ? withQuery('/meetings', { ...query, cursor: page.meta.nextCursor }) : null },
    ],
  };
}

export const meetingPages: PageDef[] = [
  { path: '/meetings', query: ListQuery, build: (read, _p, q) => meetingsList(read, q) },
  { path: '/meetings/:id', build: (read, p) => meetingPage(read, p.id!) },
];
