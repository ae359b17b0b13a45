// buildApp(ctx): the HTTP surfaces over the module services. It never listens (server.ts does).
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { dashboardSurface } from './surfaces/dashboard/index.ts';
import { querystringParser, useBodyParsers } from './surfaces/http/body-parsers.ts';
import { refuseUnsafeUrl } from './surfaces/http/guard.ts';
import { renderV1, useRenderer } from './surfaces/http/render.ts';
import { v1Surface } from './surfaces/v1/index.ts';
import { webSurface } from './surfaces/web/index.ts';
import { v2Surface } from './surfaces/v2/index.ts';
import { wellKnownSurface } from './surfaces/wellknown/index.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The Fastify instance every surface mounts on: options, request id, credential-in-URL refusal, capped parsers. */
export function createFastify(ctx: AppContext): FastifyInstance {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true, querystringParser },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    refuseUnsafeUrl(request);
  });
  useBodyParsers(app);
  // Errors outside any surface render in the v1 shape.
  useRenderer(app, renderV1);
  return app;
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = createFastify(ctx);

  await app.register(wellKnownSurface(ctx));
  await app.register(v1Surface(ctx), { prefix: '/api' });
  await app.register(webSurface(ctx));
  await app.register(dashboardSurface(ctx));
  await app.register(v2Surface(ctx), { prefix: '/api' });
  return app;
}
