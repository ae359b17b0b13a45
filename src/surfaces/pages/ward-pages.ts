// The ward pages: `/wards` (the map of the 50 wards, their alderpersons, and "which ward is this
// point in"), `/wards/{n}` (one ward), each with its Markdown variant (`.md`) rendered from the same
// view model. They perform the API's operations (people.public.list, wards.locate) as the visitor.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { performAsVisitor, sendKept } from './public-answer.ts';
import { type Html, shell } from './public-shell.ts';
import { type WardMember, wardMap, wardMembers } from './ward-map.ts';

type Location = OperationOutput<'wards.locate'>;

interface WardsView {
  members: WardMember[];
  /** The ward of a `/wards/{n}` page. */
  ward: number | null;
  /** The answer to the form's question, when coordinates were given. */
  located: Location | null;
}

const COORDINATE = /^-?\d{1,3}(\.\d{1,15})?$/;

/** The form's coordinates, or null when none were given; bad ones are a 400 page. */
function coordinatesOf(query: Record<string, unknown>): { lat: number; lon: number } | null {
  const { lat, lon, ...rest } = query;
  if (Object.keys(rest).length) throw new AppError('invalid_request', `Unknown parameter ${Object.keys(rest)[0]}: this page takes lat and lon.`);
  if (lat === undefined && lon === undefined) return null;
  if (typeof lat !== 'string' || typeof lon !== 'string' || !COORDINATE.test(lat.trim()) || !COORDINATE.test(lon.trim())) {
    throw new AppError('invalid_request', 'Give both a latitude and a longitude in decimal degrees, e.g. 41.8837 and -87.6319.');
  }
  return { lat: Number(lat), lon: Number(lon) };
}

/** `42` or `42.md`: the ward number (1–50, else 404) and whether Markdown was asked for. */
function wardOf(param: string): { ward: number; markdown: boolean } {
  const m = /^(\d{1,3})(\.md)?$/.exec(param);
  if (!m) throw new AppError('invalid_request', `"${param}" is not a ward number: wards are numbered 1 to 50.`);
  const ward = Number(m[1]);
  if (ward < 1 || ward > 50) throw new AppError('not_found', `No ward ${ward}: Chicago's wards are numbered 1 to 50.`);
  return { ward, markdown: m[2] !== undefined };
}

const alderOf = (v: WardsView, ward: number) => v.members.find((m) => m.ward === ward) ?? null;

function locateForm(v: WardsView): Html {
  const answer = v.located;
  return html`<section aria-labelledby="locate">
<h2 id="locate">Which ward is this point in?</h2>
<form method="get" action="/wards">
<label for="lat">Latitude (decimal degrees)</label><input id="lat" name="lat" inputmode="decimal" required value="${answer?.lat ?? ''}" placeholder="41.8837">
<label for="lon">Longitude (decimal degrees)</label><input id="lon" name="lon" inputmode="decimal" required value="${answer?.lon ?? ''}" placeholder="-87.6319">
<p><button type="submit">Find the ward</button></p>
</form>
${
  answer
    ? html`<p class="notice" role="status">${
        answer.ward === null
          ? `The point ${answer.lat}, ${answer.lon} is not in any Chicago ward.`
          : html`The point ${answer.lat}, ${answer.lon} is in <a href="/wards/${answer.ward}">ward ${answer.ward}</a>${
              answer.alderperson
                ? html`, represented by <a href="/people/${encodeURIComponent(answer.alderperson.id)}">Ald. ${answer.alderperson.name}</a>`
                : ''
            }.`
      }</p>`
    : ''
}
<p>The same question for programs: <code>GET /api/v1/wards?lat=…&amp;lon=…</code> with a <code>public.read</code> key (<a href="/docs">API docs</a>).</p>
</section>`;
}

function wardsHtml(v: WardsView): Html {
  if (v.ward !== null) {
    const alder = alderOf(v, v.ward);
    return html`<p>${
      alder
        ? html`Ward ${v.ward} is represented by <a href="/people/${encodeURIComponent(alder.personId)}">Ald. ${alder.name}</a>.
      <a href="/feeds/people/${encodeURIComponent(alder.personId)}/votes.atom">Feed of their votes</a>.`
        : `No current alderperson of ward ${v.ward} is on record.`
    }</p>
${wardMap(v.members, { highlight: v.ward })}
${locateForm(v)}
<p><a href="/wards">All 50 wards</a> · <a href="/wards/${v.ward}.md">This page as Markdown</a></p>`;
  }
  return html`<p>Chicago elects one alderperson in each of its 50 wards. The map shows the ward boundaries in force since May 2023; choose a ward to open its alderperson's page.</p>
${wardMap(v.members)}
${locateForm(v)}
<p><a href="/wards.md">This page as Markdown</a></p>`;
}

/** The Markdown variant: the same view model, links absolute. */
export function wardsMarkdown(v: WardsView, baseUrl: string): string {
  const person = (m: WardMember) => `[Ald. ${m.name}](${baseUrl}/people/${encodeURIComponent(m.personId)})`;
  const lines: string[] = [];
  if (v.ward !== null) {
    const alder = alderOf(v, v.ward);
    lines.push(`# Ward ${v.ward}`, '', alder ? `Ward ${v.ward} is represented by ${person(alder)}.` : `No current alderperson of ward ${v.ward} is on record.`);
    if (alder) lines.push('', `Votes feed: ${baseUrl}/feeds/people/${encodeURIComponent(alder.personId)}/votes.atom`);
  } else {
    lines.push(
      '# Wards',
      '',
      'Chicago elects one alderperson in each of its 50 wards (boundaries in force since May 2023).',
      '',
      '| Ward | Alderperson |',
      '| ---: | --- |',
    );
    for (let ward = 1; ward <= 50; ward++) {
      const alder = alderOf(v, ward);
      lines.push(`| [${ward}](${baseUrl}/wards/${ward}.md) | ${alder ? person(alder) : '—'} |`);
    }
  }
  if (v.located) {
    const l = v.located;
    lines.push(
      '',
      l.ward === null
        ? `The point ${l.lat}, ${l.lon} is not in any Chicago ward.`
        : `The point ${l.lat}, ${l.lon} is in [ward ${l.ward}](${baseUrl}/wards/${l.ward}.md).`,
    );
  }
  lines.push('', `Which ward is a point in: \`GET ${baseUrl}/api/v1/wards?lat=41.8837&lon=-87.6319\` (a \`public.read\` key).`, '');
  return lines.join('\n');
}

export function wardPages(ctx: AppContext) {
  const baseUrl = ctx.config.baseUrl;
  async function answer(request: FastifyRequest, reply: FastifyReply, ward: number | null, markdown: boolean): Promise<FastifyReply> {
    const at = coordinatesOf(request.query as Record<string, unknown>);
    return sendKept(ctx, request, reply, markdown ? 'markdown' : 'html', async () => {
      const view: WardsView = { members: await wardMembers(ctx), ward, located: at ? await performAsVisitor(ctx, 'wards.locate', at) : null };
      if (markdown) return wardsMarkdown(view, baseUrl);
      const title = ward === null ? 'Wards' : `Ward ${ward}`;
      const path = ward === null ? '/wards' : `/wards/${ward}`;
      const alder = ward === null ? null : alderOf(view, ward);
      const description =
        ward === null
          ? 'Map of Chicago’s 50 wards and their alderpersons; find the ward of any point.'
          : `Chicago’s ward ${ward}${alder ? `, represented by Ald. ${alder.name}` : ''}.`;
      return String(
        await shell(
          {
            title,
            description,
            path,
            baseUrl,
            alternates: [
              { type: 'text/markdown', href: `${path}.md`, title: `${title} as Markdown` },
              ...(alder
                ? [
                    {
                      type: 'application/atom+xml',
                      href: `/feeds/people/${encodeURIComponent(alder.personId)}/votes.atom`,
                      title: `Votes of Ald. ${alder.name}`,
                    },
                  ]
                : []),
            ],
          },
          wardsHtml(view),
        ),
      );
    });
  }
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/wards', (request, reply) => answer(request, reply, null, false));
    app.get('/wards.md', (request, reply) => answer(request, reply, null, true));
    app.get<{ Params: { n: string } }>('/wards/:n', (request, reply) => {
      const { ward, markdown } = wardOf(request.params.n);
      return answer(request, reply, ward, markdown);
    });
  };
}
