// The bulk files, open to everyone without a credential: the /bulk page (HTML, and /bulk.md) and
// the manifest /bulk/index.json, both from the `bulk.read` operation performed as the website
// visitor, and the files themselves at /bulk/<name> (send-file.ts: ETag, conditional and range
// requests). Like every open page they pass the service's URL checks (app.ts) and read no
// credential and no session; a file is served only by a name the current manifest lists.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, normalizeError } from '../../kernel/errors.ts';
import { notModified } from '../http/response-cache.ts';
import { renderV1, sendError } from '../http/render.ts';
import { registerPage, sendPageError } from '../pages/page-route.ts';
import { contentTypes, PUBLIC_CACHE, performAsVisitor } from '../pages/public-answer.ts';
import { bulkPages } from './page.ts';
import { sendBulkFile } from './send-file.ts';

/** The data answers (manifest, files) say what went wrong in the v1 JSON shape, never as a page. */
function dataError(reply: FastifyReply, err: unknown): FastifyReply {
  const e = normalizeError(err);
  if (e.status >= 500) reply.log.error({ err }, 'bulk answer failed');
  return sendError(reply, e, renderV1);
}

export function bulkSurface(ctx: AppContext) {
  return async function bulk(app: FastifyInstance): Promise<void> {
    app.setErrorHandler(async (error, request, reply) => sendPageError(request, reply, error, ctx.config.baseUrl));
    for (const def of bulkPages) registerPage(app, ctx, def);

    app.get('/bulk/index.json', async (request, reply) => {
      try {
        const body = JSON.stringify(await performAsVisitor(ctx, 'bulk.read', {}));
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
        reply.header('Cache-Control', PUBLIC_CACHE).header('ETag', etag).header('X-Content-Type-Options', 'nosniff');
        // RFC 9110 §13.1.2: a matching If-None-Match is answered 304 without the body.
        if (notModified(request, etag, null)) return reply.status(304).send();
        return reply.status(200).type(contentTypes.json).send(body);
      } catch (err) {
        return dataError(reply, err);
      }
    });

    app.route({
      method: ['GET', 'HEAD'],
      url: '/bulk/:file',
      handler: async (request, reply) => {
        try {
          const name = (request.params as { file: string }).file;
          const file = await ctx.services.bulk.file(name);
          if (!file) throw new AppError('not_found', `No bulk file ${name}; /bulk/index.json lists the files.`);
          return await sendBulkFile(request, reply, file);
        } catch (err) {
          return dataError(reply, err);
        }
      },
    });
  };
}
