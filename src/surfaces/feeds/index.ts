// Atom 1.0 feeds (RFC 4287) of the public record, open to everyone: new legislation, meetings,
// each alderperson's votes, each body's actions and any search. Each is made from the same
// catalogue operations as the API (performed as the visitor), kept per URL as the `atom`
// representation until the record changes, and sent with an ETag and `Cache-Control: public`.
// Entry ids are tag URIs (RFC 4151) derived from the record, so a reader never sees one twice.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { performAsVisitor, sendKept } from '../pages/public-answer.ts';
import { type AtomEntry, type AtomFeed, atomDate, renderAtom, tagUri } from './atom.ts';

/** Entries per feed: the newest records. */
export const FEED_SIZE = 50;

/**
 * An entry's dates from its record's own: `published` is the record's date (RFC 4287 §4.2.14) and
 * `updated` its latest change at the source (§4.2.15), at least `published`. Only a record with no
 * date of its own falls back on when it last changed here.
 */
export function recordDates(own: string | null, lastUpstream: string | null, changedHere: string): { published?: string; updated: string } {
  if (!own && !lastUpstream) return { updated: atomDate(changedHere) };
  const published = own ? atomDate(own) : undefined;
  const upstream = lastUpstream ? atomDate(lastUpstream) : published!;
  return { ...(published ? { published } : {}), updated: published && published > upstream ? published : upstream };
}

const chicagoTime = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', dateStyle: 'medium', timeStyle: 'short' });

/** A feed takes no parameters besides those it names; anything else is a 400, never ignored. */
function onlyParams(request: FastifyRequest, allowed: readonly string[]): Record<string, string> {
  const query = request.query as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name))
      throw new AppError(
        'invalid_request',
        `Unknown parameter ${name}${allowed.length ? `: this feed takes ${allowed.join(', ')}` : ': this feed takes none'}.`,
      );
    if (typeof value !== 'string') throw new AppError('invalid_request', `Give ${name} once.`);
    out[name] = value;
  }
  return out;
}

export function feedsSurface(ctx: AppContext) {
  const base = ctx.config.baseUrl;
  const tag = (specific: string) => tagUri(new URL(base).hostname, specific);
  const page = (path: string) => `${base}${path}`;
  const enc = encodeURIComponent;

  function send(request: FastifyRequest, reply: FastifyReply, params: readonly string[], make: (q: Record<string, string>) => Promise<Omit<AtomFeed, 'self'>>) {
    const q = onlyParams(request, params);
    return sendKept(ctx, request, reply, 'atom', async () => renderAtom({ ...(await make(q)), self: page(request.url) }, base));
  }

  const matterEntry = (m: {
    recordNumber: string;
    title: string;
    type: string;
    status: string | null;
    introductionDate: string | null;
    lastActionDate: string | null;
    sponsorNames: string;
    updatedAt: string;
  }): AtomEntry => ({
    id: tag(`matters/${m.recordNumber}`),
    title: `${m.recordNumber}: ${m.title}`,
    ...recordDates(m.introductionDate ?? m.lastActionDate, m.lastActionDate, m.updatedAt),
    link: page(`/matters/${enc(m.recordNumber)}`),
    categories: [m.type, ...(m.status ? [m.status] : [])],
    summary: [
      `${m.type}${m.introductionDate ? `, introduced ${m.introductionDate}` : ''}.`,
      m.sponsorNames ? `Sponsors: ${m.sponsorNames}.` : '',
      m.status ? `Status: ${m.status}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
  });

  return async function feeds(app: FastifyInstance): Promise<void> {
    app.get('/feeds/matters.atom', (request, reply) =>
      send(request, reply, [], async () => {
        const { data } = await performAsVisitor(ctx, 'matters.list', { sort: '-introduced', limit: FEED_SIZE });
        return {
          id: tag('feeds/matters'),
          title: 'New legislation · Chicago City Council',
          subtitle: 'Matters newly introduced, newest first.',
          alternate: page('/matters'),
          entries: data.map(matterEntry),
        };
      }),
    );

    app.get('/feeds/meetings.atom', (request, reply) =>
      send(request, reply, [], async () => {
        const { data } = await performAsVisitor(ctx, 'meetings.list', { sort: '-date', limit: FEED_SIZE });
        const entries = data.map((g) => ({
          id: tag(`meetings/${g.id}`),
          title: `${g.bodyName}, ${chicagoTime.format(new Date(g.startTime))}`,
          ...recordDates(g.startTime, null, g.updatedAt),
          link: page(`/meetings/${enc(g.id)}`),
          categories: [g.status],
          summary: [
            `${g.bodyName} meeting (${g.statusDetail ?? g.status}) on ${chicagoTime.format(new Date(g.startTime))} Chicago time.`,
            g.location ? `Location: ${g.location}.` : '',
            g.comment ?? '',
          ]
            .filter(Boolean)
            .join(' '),
        }));
        return {
          id: tag('feeds/meetings'),
          title: 'Meetings · Chicago City Council',
          subtitle: 'Meetings of the council and its committees, latest first.',
          alternate: page('/meetings'),
          entries,
        };
      }),
    );

    app.get<{ Params: { id: string } }>('/feeds/people/:id/votes.atom', (request, reply) =>
      send(request, reply, [], async () => {
        const person = await performAsVisitor(ctx, 'people.public.read', { id: request.params.id });
        const { data } = await performAsVisitor(ctx, 'votes.list', { person: person.id, limit: FEED_SIZE });
        const entries = data.map((v) => ({
          id: tag(`roll-calls/${v.rollCallId}/votes/${v.personId}`),
          title: `${v.personName}: ${v.value} on ${v.recordNumber ?? v.actionName} (${v.date})`,
          ...recordDates(v.date, null, v.updatedAt),
          link: page(`/roll-calls/${enc(v.rollCallId)}`),
          categories: [v.value],
          summary: `${v.personName}${v.ward === null ? '' : ` (ward ${v.ward})`} voted ${v.value} on ${v.date}: ${v.actionName}${v.recordNumber ? ` of ${v.recordNumber}` : ''}.`,
        }));
        return {
          id: tag(`feeds/people/${person.id}/votes`),
          title: `Votes of ${person.name}`,
          subtitle: `Every roll-call vote of ${person.name}, newest first.`,
          alternate: page(`/people/${enc(person.id)}`),
          entries,
          updatedWhenEmpty: atomDate(person.updatedAt),
        };
      }),
    );

    app.get<{ Params: { id: string } }>('/feeds/bodies/:id/actions.atom', (request, reply) =>
      send(request, reply, [], async () => {
        const body = await performAsVisitor(ctx, 'bodies.read', { id: request.params.id });
        const { data } = await performAsVisitor(ctx, 'bodies.actions.list', { id: body.id, limit: FEED_SIZE });
        const entries = data.map((a) => ({
          id: tag(`bodies/${body.id}/actions/${a.id}`),
          title: `${a.name}: ${a.matter.recordNumber}${a.date ? ` (${a.date})` : ''}`,
          ...recordDates(a.date, null, a.updatedAt),
          link: page(`/matters/${enc(a.matter.recordNumber)}`),
          categories: [a.name],
          summary: `${body.name}: ${a.name}${a.result ? ` (${a.result})` : ''}${a.date ? ` on ${a.date}` : ''}, ${a.matter.recordNumber} “${a.matter.title}”.${a.text ? ` ${a.text}` : ''}`,
        }));
        return {
          id: tag(`feeds/bodies/${body.id}/actions`),
          title: `Actions of the ${body.name}`,
          subtitle: `What the ${body.name} did on matters, newest first.`,
          alternate: page(`/bodies/${enc(body.id)}`),
          entries,
          updatedWhenEmpty: atomDate(body.updatedAt),
        };
      }),
    );

    app.get('/feeds/search.atom', (request, reply) =>
      send(request, reply, ['q', 'type'], async (q) => {
        if (q.q === undefined) throw new AppError('invalid_request', 'A search feed needs q, the words to look for: /feeds/search.atom?q=…');
        const input = { q: q.q, limit: FEED_SIZE, ...(q.type === undefined ? {} : { type: q.type }) } as Parameters<typeof performAsVisitor<'search.read'>>[2];
        const { data } = await performAsVisitor(ctx, 'search.read', input);
        const entries = data.map((r) => ({
          id: tag(r.path.slice(1)),
          title: r.title,
          ...recordDates(r.date, null, r.updatedAt),
          link: page(r.path),
          categories: [r.type],
          summary: [r.subtitle, r.date].filter(Boolean).join(' · ') || r.title,
        }));
        const searchPage = `/search?q=${enc(q.q)}${q.type ? `&type=${enc(q.type)}` : ''}`;
        return {
          id: tag(`feeds/search?q=${enc(q.q)}${q.type ? `&type=${enc(q.type)}` : ''}`),
          title: `Search: ${q.q}`,
          subtitle: 'Records matching the search, most relevant first.',
          alternate: page(searchPage),
          entries,
        };
      }),
    );
  };
}
