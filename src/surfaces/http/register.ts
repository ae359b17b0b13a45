// Mounts a table of routes on an encapsulated Fastify scope. Each route binds one operation:
// admitted before validation (./guard.ts), its input validated by Fastify from the operation's
// schema, then performed. Write routes also get Idempotency-Key handling (./idempotency.ts);
// operations marked `cached` answer from memory when they can (./response-cache.ts).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { admitOperation, type GuardOptions } from './guard.ts';
import { endOpenUnit, lookUpIdempotencyKey, replayOrRun, storeIdempotentAnswer } from './idempotency.ts';
import { responseCacheFor } from './response-cache.ts';
import { type RouteDef, routeInput, routeParts, successStatus, writeMethods } from './route.ts';
import { schemaErrorFormatter } from './schema-errors.ts';

export function registerRoutes(app: FastifyInstance, ctx: AppContext, defs: readonly RouteDef[], options: GuardOptions): void {
  // Bodies are JSON only: any other type (text/plain included) is 415 with what to send instead.
  app.removeContentTypeParser('text/plain');
  const answers = responseCacheFor(ctx.caches.publicData);
  for (const def of defs) {
    const op = ctx.performer.get(def.operation);
    const parts = routeParts(def, op);
    const status = successStatus(def);
    const cached = op.cached && def.method === 'GET';
    app.route({
      method: def.method,
      url: def.path,
      schema: { ...parts, response: { [status]: op.output } },
      config: { operation: def.operation },
      schemaErrorFormatter: schemaErrorFormatter as never,
      // Every write gets Idempotency-Key handling here, so no route can be without it.
      ...(writeMethods.has(def.method)
        ? {
            preValidation: [
              admitOperation(ctx, def.operation, options, { beforeLimits: lookUpIdempotencyKey(ctx, def.operation) }),
              replayOrRun(ctx, def.operation),
            ],
            onSend: storeIdempotentAnswer(ctx),
            onResponse: endOpenUnit,
          }
        : { preValidation: admitOperation(ctx, def.operation, options) }),
      ...(cached ? { onSend: answers.onSend } : {}),
      // Not an async function: an answer kept in memory is sent in the same turn, with no promise.
      handler: (request, reply) => {
        if (cached) {
          if (answers.send(request, reply, 'json')) return undefined;
          answers.begin(request, 'json');
        }
        return ctx.performer.execute(request.admission!, routeInput(def, parts, request), { validated: true }).then((result) => {
          if (op.private) reply.header('Cache-Control', 'private, no-store');
          if (def.location) reply.header('Location', def.location(result));
          reply.status(status);
          return result;
        });
      },
    });
  }
}
