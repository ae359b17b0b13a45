// Mounts a route table on an encapsulated Fastify scope: the guard runs before validation (so an
// unauthenticated caller learns nothing about the route's inputs), then the handler.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { type GuardOptions, guard } from './guard.ts';
import type { RouteDef } from './route.ts';

export function registerRoutes(app: FastifyInstance, ctx: AppContext, defs: readonly RouteDef[], options: GuardOptions): void {
  for (const def of defs) {
    const status = def.status ?? (def.method === 'POST' ? 201 : 200);
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
      preValidation: guard(ctx, def.operation, options),
      handler: async (request, reply) => {
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
