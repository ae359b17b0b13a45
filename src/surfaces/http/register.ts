// Mounts a route table on an encapsulated Fastify scope: the guard runs before validation (so an
// unauthenticated caller learns nothing about the route's inputs), then the handler. Write routes
// also get Idempotency-Key handling (./idempotency.ts); `cached` reads answer from memory when
// they can (./response-cache.ts).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { type GuardOptions, guard } from './guard.ts';
import { claimIdempotencyKey, sendReplay, storeIdempotentAnswer } from './idempotency.ts';
import { responseCacheFor } from './response-cache.ts';
import { type RouteDef, writeMethods } from './route.ts';
import { schemaErrorFormatter } from './schema-errors.ts';

export function registerRoutes(app: FastifyInstance, ctx: AppContext, defs: readonly RouteDef[], options: GuardOptions): void {
  const answers = responseCacheFor(ctx.caches.publicData);
  for (const def of defs) {
    const status = def.status ?? (def.method === 'POST' ? 201 : 200);
    const cached = def.cached === true && def.method === 'GET';
    app.route({
      method: def.method,
      url: def.path,
      schema: {
        ...(def.querystring ? { querystring: def.querystring } : {}),
        ...(def.params ? { params: def.params } : {}),
        ...(def.body ? { body: def.body } : {}),
        response: { [status]: def.response },
      },
      config: { operation: def.operation },
      schemaErrorFormatter: schemaErrorFormatter as never,
      // Every write gets Idempotency-Key handling here, so no route can be without it.
      ...(writeMethods.has(def.method)
        ? {
            preValidation: [guard(ctx, def.operation, options, { beforeLimits: claimIdempotencyKey(ctx, def.operation) }), sendReplay],
            onSend: storeIdempotentAnswer(ctx),
          }
        : { preValidation: guard(ctx, def.operation, options) }),
      ...(cached ? { onSend: answers.onSend } : {}),
      handler: async (request, reply) => {
        if (cached) {
          if (answers.send(request, reply)) return reply;
          answers.begin(request);
        }
        const result = await def.handler({
          actor: request.actor!,
          query: request.query as never,
          params: request.params as never,
          body: request.body as never,
          request,
          reply,
        });
        if (def.private) reply.header('Cache-Control', 'private, no-store');
        reply.status(status);
        return result;
      },
    });
  }
}
