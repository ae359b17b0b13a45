// The matter detail route without its guard, in its own process: the same route definition
// (schemas, handler, public-data service, presenter, serialization) over the same kind of context
// and Fastify options as the service, with no credential check and no counting. The difference
// between this and the real route is what authentication and limits cost.
import { createFastify } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { renderV1, useRenderer } from '../src/surfaces/http/render.ts';
import { schemaErrorFormatter } from '../src/surfaces/http/schema-errors.ts';
import { publicRoutes } from '../src/surfaces/v1/public-routes.ts';

const ctx = await createContext(loadConfig(), { migrate: false });
const def = publicRoutes(ctx).find((r) => r.method === 'GET' && r.path === '/matters/:record');
if (!def) throw new Error('the v1 route GET /matters/:record does not exist');

// The same Fastify instance as buildApp (src/app.ts), so only the guard differs.
const app = createFastify(ctx);
app.get('/health', async () => ({ status: 'ok' }));
await app.register(
  async (scope) => {
    useRenderer(scope, renderV1);
    scope.route({
      method: def.method,
      url: def.path,
      schema: { ...(def.params ? { params: def.params } : {}), response: { 200: def.response } },
      schemaErrorFormatter: schemaErrorFormatter as never,
      handler: async (request, reply) => {
        // matters.read is public data: its handler reads only the path parameter, never the actor.
        const result = await def.handler({ actor: undefined as never, query: {}, params: request.params as never, body: undefined as never, request, reply });
        reply.status(200);
        return result;
      },
    });
  },
  { prefix: '/api/v1' },
);
await app.listen({ port: ctx.config.port, host: ctx.config.host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => ctx.close()).then(() => process.exit(0)));
}
