// How the open pages, feeds and guide files answer: they perform the same catalogue operations as
// the API as the website visitor (kernel/actor.ts: public.read, never counted), and send what
// they make with `Cache-Control: public` (the ETag comes from @fastify/etag on their scope).
// Answers made only from the public record are kept by the response cache under their own
// representation (HTML, Markdown, Atom), apart from the API's JSON of the same data.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { visitor } from '../../kernel/actor.ts';
import { type Representation, responseCacheFor } from '../http/response-cache.ts';

/**
 * Perform an operation for a page: the same gates as the API, as the visitor, not counted. A read
 * whose answer depends on more than the public record names the change that makes it stale
 * (kernel/catalogue.ts `changesWith`); it is added to `depends`, the keys a kept answer made from
 * it is dropped under (http/response-cache.ts).
 */
export async function performAsVisitor<Id extends OperationId>(
  ctx: Pick<AppContext, 'performer'>,
  id: Id,
  input: OperationInput<Id>,
  depends?: string[],
): Promise<OperationOutput<Id>> {
  const { result } = await ctx.performer.perform(visitor, id, input, { call: { surface: 'web' }, count: false });
  const changesWith = ctx.performer.get(id).changesWith;
  if (changesWith) depends?.push(changesWith(input, result));
  return result as OperationOutput<Id>;
}

/** Open answers may be stored by any cache for a few minutes; the ETag lets them revalidate. */
export const PUBLIC_CACHE = 'public, max-age=300';

/**
 * Content-Security-Policy of the open HTML pages: styles inline only; scripts and connections to
 * this site only (a record page's /assets/act.js asks the session what it may do there).
 */
export const PAGE_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const contentTypes = {
  html: 'text/html; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
} satisfies Record<Representation, string>;

function publicHeaders(reply: FastifyReply, type: string): void {
  reply.header('Cache-Control', PUBLIC_CACHE).header('X-Content-Type-Options', 'nosniff');
  if (!type.startsWith('text/html')) return;
  // A page that needs its own policy (the API docs' viewer) sets it first; the other security
  // headers of an HTML answer are set by surfaces/http/security-headers.ts.
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', PAGE_CSP);
}

/**
 * Answers from the public record: the kept answer of this URL in this representation when there is
 * one, else `make`'s, kept for the next request if the record did not change meanwhile.
 */
export async function sendKept(
  ctx: Pick<AppContext, 'caches'>,
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  make: () => Promise<string>,
): Promise<FastifyReply> {
  const cache = responseCacheFor(ctx.caches.publicData);
  publicHeaders(reply, contentTypes[representation]);
  if (cache.send(request, reply, representation)) return reply;
  cache.begin(request, representation);
  const body = await make();
  reply.status(200).type(contentTypes[representation]);
  cache.keep(request, reply, body);
  return reply.send(body);
}

/** Answers that are not kept (made from code alone): the same headers. */
export function sendOpen(reply: FastifyReply, type: string, body: string): FastifyReply {
  publicHeaders(reply, type);
  return reply.status(200).type(type).send(body);
}

/**
 * A file of an npm package served as is (a viewer's scripts and styles): its ETag names the package
 * version, since the file changes only with it, and a matching If-None-Match is 304 (RFC 9110 §13.1.2).
 */
export function sendPackageFile(request: FastifyRequest, reply: FastifyReply, file: { etag: string; type: string; body: () => unknown }): FastifyReply {
  reply.header('ETag', file.etag).header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  return reply.type(file.type).send(file.body());
}
