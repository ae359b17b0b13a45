// The ward map: Chicago's 50 wards drawn as SVG from the bundled 2023 boundaries (public-data's
// wards.ts), each ward a link to its alderperson's page. Accessible without the picture: every ward
// carries a title and an accessible name, and a table beside the map lists the same wards and
// links. Pages get the alderpersons with `wardMembers` (the same operation as GET /api/v1/people)
// and hand them to `wardMap`; the outlines are projected once and kept.
import { html } from 'hono/html';
import simplify from 'simplify-js';
import type { AppContext } from '../../context.ts';
import { type WardBoundary, wardBoundaries } from '../../modules/public-data/index.ts';
import { performAsVisitor } from './public-answer.ts';

type Html = ReturnType<typeof html>;

export interface WardMember {
  ward: number;
  personId: string;
  name: string;
}

export interface WardMapOptions {
  /** A ward drawn highlighted (an alderperson's or a ward's own page). */
  highlight?: number | null;
  /** Distinguishes the ids of two maps on one page. */
  idPrefix?: string;
  /** Heading level of the table alternative's caption is the page's; this is its text. */
  caption?: string;
}

/** The map's drawing width in SVG units; the height follows Chicago's shape. */
const WIDTH = 480;
/** Douglas–Peucker tolerance in SVG units: finer than a screen pixel at the drawn size. */
const TOLERANCE = 0.35;

interface Outline {
  ward: number;
  d: string;
}

interface Projected {
  width: number;
  height: number;
  outlines: Outline[];
}

/**
 * Equirectangular projection scaled by the cosine of the city's middle latitude: over a city's
 * 40 km the distortion is far below a pixel, and every ward keeps its true shape.
 */
export function projectWards(wards: readonly WardBoundary[], width = WIDTH): Projected {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const w of wards) {
    west = Math.min(west, w.bbox[0]);
    south = Math.min(south, w.bbox[1]);
    east = Math.max(east, w.bbox[2]);
    north = Math.max(north, w.bbox[3]);
  }
  const kx = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const scale = width / ((east - west) * kx);
  const height = Math.ceil((north - south) * scale);
  const round = (v: number) => Math.round(v * 10) / 10;
  const outlines = wards.map((w) => {
    const rings: string[] = [];
    for (const polygon of w.polygons) {
      for (const ring of polygon) {
        const points = ring.map(([lon, lat]) => ({ x: (lon! - west) * kx * scale, y: (north - lat!) * scale }));
        const kept = simplify(points, TOLERANCE, true);
        if (kept.length < 4) continue; // a sliver smaller than a pixel
        rings.push(`M${kept.map((p) => `${round(p.x)} ${round(p.y)}`).join('L')}Z`);
      }
    }
    return { ward: w.ward, d: rings.join('') };
  });
  return { width, height, outlines };
}

let projected: Projected | null = null;
const outlines = (): Projected => {
  projected ??= projectWards(wardBoundaries());
  return projected;
};

/** The current alderperson of each ward, performed as a website visitor (never counted). */
export async function wardMembers(ctx: Pick<AppContext, 'performer'>): Promise<WardMember[]> {
  const { data } = await performAsVisitor(ctx, 'people.public.list', { kind: 'alderperson', current: true, sort: 'ward', limit: 200 });
  return data.flatMap((p) => (p.ward === null ? [] : [{ ward: p.ward, personId: p.id, name: p.name }]));
}

function wardLabel(ward: number, member: WardMember | undefined): string {
  return member ? `Ward ${ward}: Ald. ${member.name}` : `Ward ${ward} (no alderperson on record)`;
}

/** The map and its table: a `<figure>` for any page. */
export function wardMap(members: readonly WardMember[], options: WardMapOptions = {}): Html {
  const { width, height, outlines: shapes } = outlines();
  const prefix = options.idPrefix ?? 'ward-map';
  const byWard = new Map(members.map((m) => [m.ward, m]));
  const caption = options.caption ?? 'Chicago’s 50 wards (boundaries from May 2023)';
  const paths = shapes.map(({ ward, d }) => {
    const member = byWard.get(ward);
    const label = wardLabel(ward, member);
    const current = options.highlight === ward;
    const href = member ? `/people/${encodeURIComponent(member.personId)}` : `/wards/${ward}`;
    return html`<a href="${href}" aria-label="${label}"${current ? html` aria-current="page"` : ''}><path d="${d}" fill="${current ? '#1d5fa8' : '#dfe8f2'}" stroke="#345" stroke-width="0.6"><title>${label}</title></path></a>`;
  });
  return html`<figure class="ward-map" aria-labelledby="${prefix}-caption">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" style="max-width:${width}px;height:auto" role="group" aria-labelledby="${prefix}-title">
<style>.ward-map a:hover path,.ward-map a:focus path{fill:#ffd24d}.ward-map a:focus{outline:2px solid #000}</style>
<title id="${prefix}-title">${caption}: each ward links to its alderperson</title>
${paths}
</svg>
<figcaption id="${prefix}-caption">${caption}. Each ward links to its alderperson; the table lists the same wards.</figcaption>
<details>
<summary>The wards and their alderpersons as a table</summary>
<table>
<caption>${caption}</caption>
<thead><tr><th scope="col">Ward</th><th scope="col">Alderperson</th></tr></thead>
<tbody>
${shapes.map(({ ward }) => {
  const member = byWard.get(ward);
  return html`<tr><th scope="row"><a href="/wards/${ward}">Ward ${ward}</a></th><td>${member ? html`<a href="/people/${encodeURIComponent(member.personId)}">${member.name}</a>` : '—'}</td></tr>`;
})}
</tbody>
</table>
</details>
</figure>`;
}
