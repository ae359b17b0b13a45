// The council compared: every current alderperson side by side (attendance, agreement with the
// majority, roll calls in the minority, legislation sponsored and passed), sortable by any column.
// One operation (council.compare.read) computes it in the database; the page only lays it out.
import { CouncilCompareQuery } from '../../../modules/public-data/schema-record.ts';
import { link, type PageModel, paragraph, percent, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { pick } from './query.ts';

const enc = encodeURIComponent;

/** The sort choices as the page offers them ([value, label]). */
const sorts: readonly (readonly [string, string])[] = [
  ['ward', 'Ward'],
  ['name', 'Name'],
  ['-attendance', 'Attendance, highest first'],
  ['attendance', 'Attendance, lowest first'],
  ['-alignment', 'With the majority, most first'],
  ['alignment', 'With the majority, least first'],
  ['-minority', 'In the minority, most first'],
  ['-sponsored', 'Legislation sponsored, most first'],
  ['-passed', 'Legislation passed, most first'],
];

async function comparePage(read: Reader, query: Record<string, any>): Promise<PageModel> {
  const c = await read('council.compare.read', query as never);
  const label = sorts.find(([v]) => v === c.meta.sort)?.[1] ?? c.meta.sort;
  return {
    title: 'The council compared',
    description:
      'Every alderperson of the Chicago City Council side by side: attendance, agreement with the council majority, roll calls in the minority, legislation sponsored and passed.',
    path: withQuery('/council/compare', query),
    updatedAt: null,
    feeds: [],
    blocks: [
      paragraph(
        'Counted over the roll calls recorded here, vote by vote. Attendance: roll calls not missed (absent or not voting counts as missed). ' +
          'With the majority: Yea or Nay votes on the side with more votes, of those cast on roll calls whose yeas and nays were not tied; ' +
          'in the minority: those on the side with fewer. Legislation: matters sponsored or co-sponsored, and how many passed, were adopted or approved.',
      ),
      {
        kind: 'form',
        action: '/council/compare',
        label: 'Sort the council',
        fields: [{ name: 'sort', label: 'Sort by', value: c.meta.sort, options: sorts }],
      },
      paragraph(['Sort by: ', ...sorts.flatMap(([value, text], n) => [n ? ' · ' : '', link(text, withQuery('/council/compare', { sort: value }))])]),
      table(
        `The council by ${label.toLowerCase()}`,
        ['Alderperson', 'Ward', 'Roll calls', 'Attendance', 'With the majority', 'In the minority', 'Sponsored', 'Passed'],
        c.data.map((r) => [
          link(r.name, `/people/${enc(r.personId)}`),
          r.ward === null ? '—' : String(r.ward),
          String(r.rollCalls),
          `${percent(r.attendance)} (${r.attended})`,
          `${percent(r.alignment)} (${r.withMajority} of ${r.decided})`,
          String(r.inMinority),
          String(r.sponsored),
          String(r.passed),
        ]),
        'No alderpersons on record.',
        [1, 2, 3, 4, 5, 6, 7],
      ),
    ],
  };
}

export const comparePages: PageDef[] = [{ path: '/council/compare', query: pick(CouncilCompareQuery, ['sort']), build: (read, _p, q) => comparePage(read, q) }];
