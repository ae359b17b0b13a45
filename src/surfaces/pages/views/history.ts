// The Legistar-era committee history on a person's or a committee's page: terms to 2019 and
// attendance at confirmed committee meetings 2011–2017, clearly dated, from committee-history.read.
import { type Block, day, link, type PageModel, paragraph, percent, section, table } from '../model.ts';
import type { Reader } from '../page-route.ts';

const enc = encodeURIComponent;

export async function historySection(read: Reader, of: { person: string } | { body: string }): Promise<PageModel['blocks'][number]> {
  const h = await read('committee-history.read', of);
  const byPerson = 'person' in of;
  const other = (x: { personId: string; name: string; bodyId: string; bodyName: string }) =>
    byPerson ? link(x.bodyName, `/bodies/${enc(x.bodyId)}`) : link(x.name, `/people/${enc(x.personId)}`);
  const blocks: Block[] = [
    paragraph(`Before the City Clerk's eLMS: ${h.source}.`),
    table(
      'Committee terms, 2007–2019',
      [byPerson ? 'Committee' : 'Alderperson', 'From', 'To'],
      h.terms.map((t) => [other(t), day(t.startDate), day(t.endDate)]),
      'No committee terms of those years on record.',
    ),
    table(
      'Attendance at committee meetings, 2011–2017',
      [byPerson ? 'Committee' : 'Alderperson', 'Meetings', 'Recorded present', 'Share', 'Between'],
      h.attendance.map((a) => [
        other(a),
        String(a.meetings),
        String(a.present),
        percent(a.meetings ? Math.round((a.present / a.meetings) * 1000) / 1000 : null),
        `${a.firstDate} and ${a.lastDate}`,
      ]),
      'No committee attendance of those years on record.',
      [1, 2, 3],
    ),
  ];
  return section('Committee history, 2007–2019', blocks);
}
