// The ward map (../ward-map.ts) as a page's figure: the current alderpersons performed as the
// visitor, each ward linking to its alderperson. The Markdown variant points to the wards page,
// whose own Markdown variant lists the same wards.
import { link, type PageModel } from '../model.ts';
import type { Reader } from '../page-route.ts';
import { wardMap } from '../ward-map.ts';

export async function wardFigure(read: Reader, highlight: number | null = null): Promise<NonNullable<PageModel['figure']>> {
  const people = await read('people.public.list', { kind: 'alderperson', current: true, sort: 'ward', limit: 200 });
  const members = people.data.flatMap((p) => (p.ward === null ? [] : [{ ward: p.ward, personId: p.id, name: p.name }]));
  return {
    html: String(await wardMap(members, { highlight })),
    markdown: ['Ward map: ', link('the 50 wards and their alderpersons', highlight === null ? '/wards' : `/wards/${highlight}`)],
  };
}
