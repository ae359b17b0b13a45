// Mounts a public page: GET <path> (HTML) and GET <path>.md (Markdown), both rendered from the one
// view model the page's `build` makes by performing catalogue operations as the website visitor
// (kernel/actor.ts: public.read only, never counted). No credential is read and no session is
// loaded, so a page is the same for everyone — signed in or not — and carries
// `Cache-Control: public` with an ETag and Last-Modified. Answers are kept in memory per
// representation (http/response-cache.ts) until the public record changes.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { normalizeError } from '../../kernel/errors.ts';
import type { Representation } from '../http/response-cache.ts';
import { notModified, responseCacheFor } from '../http/response-cache.ts';
import { schemaErrorFormatter } from '../http/schema-errors.ts';
import { errorTitle, sendErrorPage } from '../web/errors.ts';
import { markdownPath, publicPage } from './layout.ts';
import { PAGE_CSP, performAsVisitor } from './public-answer.ts';
import type { PageModel } from './model.ts';
import { renderMarkdown } from './render-markdown.ts';

/** Performs a catalogue operation as the website visitor; its typed result. */
export type Reader = <Id extends OperationId>(id: Id, input: OperationInput<Id>) => Promise<OperationOutput<Id>>;

export interface PageDef {
  /** Fastify path; a `:param` path also answers `<param>.md`. */
  path: string;
  /** The query it takes (validated by Fastify, coerced; empty values are left out first). */
  query?: TObject;
  /** Keep the answers in memory (default true); false for pages showing live state. */
  keep?: boolean;
  build(read: Reader, params: Record<string, string>, query: Record<string, any>): Promise<PageModel>;
}

/** Public pages may be stored by any cache for a minute, then revalidated with the ETag. */
const CACHE_CONTROL = 'public, max-age=60';
const KEPT_HEADERS = ['etag', 'link', 'last-modified', 'cache-control', 'content-security-policy', 'x-content-type-options'] as const;

const isMarkdown = (request: FastifyRequest) => request.url.split('?', 1)[0]!.endsWith('.md');

/** Performs the page's reads as the visitor; what a kept answer depends on besides the public record goes into `depends`. */
export function readerFor(ctx: AppContext, depends?: string[]): Reader {
  return (id, input) => performAsVisitor(ctx, id, input, depends);
}

/** The HTML or Markdown error answer of a page path; errors are never stored (no-store). */
export function sendPageError(request: FastifyRequest, reply: FastifyReply, error: unknown, baseUrl: string): Promise<FastifyReply> | FastifyReply {
  const err = normalizeError(error);
  if (err.status >= 500) request.log.error({ err: error }, 'page failed');
  if (!isMarkdown(request)) return sendErrorPage(request, reply, err);
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .status(err.status)
    .type('text/markdown; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(`# ${errorTitle(err.status)}\n\n${err.message.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`)}\n\nHome: <${baseUrl.replace(/\/$/, '')}/index.md>\n`);
}

export function registerPage(app: FastifyInstance, ctx: AppContext, def: PageDef): void {
  const cache = responseCacheFor(ctx.caches.publicData);
  const keep = def.keep !== false;
  const base = ctx.config.baseUrl.replace(/\/$/, '');
  const paramNames = [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const last = paramNames.at(-1);

  // Not an async function: a page kept in memory is sent in the same turn, with no promise.
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const representation: Representation = isMarkdown(request) ? 'markdown' : 'html';
    if (keep) {
      if (cache.send(request, reply, representation)) return undefined;
      cache.begin(request, representation, KEPT_HEADERS);
    }
    return make(request, reply, representation);
  };

  const make = async (request: FastifyRequest, reply: FastifyReply, representation: Representation) => {
    const params = { ...(request.params as Record<string, string>) };
    if (last && representation === 'markdown') params[last] = params[last]!.slice(0, -'.md'.length);
    const model = await def.build(readerFor(ctx, request.cacheDepends), params, (request.query ?? {}) as Record<string, any>);
    const body = representation === 'markdown' ? renderMarkdown(model, base) : String(await publicPage(model, base));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    const lastModified = model.updatedAt ? new Date(model.updatedAt).toUTCString() : null;
    reply
      .type(representation === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8')
      .header('Cache-Control', CACHE_CONTROL)
      .header('ETag', etag)
      .header('X-Content-Type-Options', 'nosniff');
    if (lastModified) reply.header('Last-Modified', lastModified);
    // The other security headers of an HTML answer: surfaces/http/security-headers.ts.
    if (representation === 'html') reply.header('Content-Security-Policy', PAGE_CSP);
    else reply.header('Link', `<${base}${model.path}>; rel="canonical"`);
    if (notModified(request, etag, lastModified)) return reply.status(304).send();
    return reply.status(200).send(body);
  };

  const paths = paramNames.length ? [def.path] : [def.path, markdownPath(def.path)];
  for (const url of paths) {
    app.route({
      method: 'GET',
      url,
      schema: def.query ? { querystring: def.query } : {},
      schemaErrorFormatter: schemaErrorFormatter as never,
      // An empty form field means "any": left out before the query is checked.
      preValidation: (request, _reply, done) => {
        const q = request.query as Record<string, unknown> | undefined;
        if (q) for (const [k, v] of Object.entries(q)) if (v === '') delete q[k];
        done();
      },
      ...(keep ? { onSend: cache.onSend } : {}),
      handler,
    });
  }
}
