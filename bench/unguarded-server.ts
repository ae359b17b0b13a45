// The matter detail route without its guard, in its own process: the same route binding and
// operation (schemas, public-data service, presenter, serialization, in-memory answers) over the
// same kind of context and Fastify options as the service, with no credential check, no access
// check and no counting. The difference between this and the real route is what the gates cost.
import { createFastify } from '../src/app.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { createContext } from '../src/context.ts';
import { type LimitState, setLimitHeaders } from '../src/kernel/limit-state.ts';
import { renderV1, useRenderer } from '../src/surfaces/http/render.ts';
import { responseCacheFor } from '../src/surfaces/http/response-cache.ts';
import { routeInput, routeParts } from '../src/surfaces/http/route.ts';
import { schemaErrorFormatter } from '../src/surfaces/http/schema-errors.ts';
import { publicRoutes } from '../src/surfaces/v1/public-routes.ts';

const ctx = await createContext(loadConfig(), { migrate: false });
const def = publicRoutes.find((r) => r.method === 'GET' && r.path === '/matters/:record');
if (!def) throw new Error('the v1 route GET /matters/:record does not exist');
const op = ctx.performer.get(def.operation);
const parts = routeParts(def, op);

// The same Fastify instance as buildApp (src/app.ts), so only the guard differs.
const app = createFastify(ctx);
const answers = responseCacheFor(ctx.caches.publicData);
app.get('/health', async () => ({ status: 'ok' }));
// The limit headers of a caller as the benchmark's (limits of a billion, most of them left), set
// by the service's own function. What the real route's headers hold changes with every request;
// these figures have the same number of digits.
const limits: LimitState = {
  day: { limit: 1_000_000_000, remaining: 999_073_724, reset: 84_375 },
  minute: { limit: 1_000_000_000, remaining: 999_437_851, reset: 15 },
  ai: { limit: 1_000_000_000, remaining: 1_000_000_000, reset: 84_375 },
};
// The route three times: as the service mounts it (in-memory answers); under /headers the same
// with the seven limit headers every authenticated answer carries (spec "Headers on every
// response", decisions.md), so the guard's cost splits into what those headers cost to send and
// read and what the checks and counting cost; and under /db answered by the database every time,
// which is what a record's first request costs.
for (const [prefix, cached, headers] of [
  ['/api/v1', true, false],
  ['/headers/api/v1', true, true],
  ['/db/api/v1', false, false],
] as const) {
  await app.register(
    async (scope) => {
      useRenderer(scope, ctx, renderV1);
      scope.route({
        method: def.method,
        url: def.path,
        schema: { ...parts, response: { 200: op.output } },
        schemaErrorFormatter: schemaErrorFormatter as never,
        // The same in-memory answers as the service's cached routes (src/surfaces/http/register.ts).
        ...(cached ? { onSend: answers.onSend } : {}),
        // As the service's (src/surfaces/http/register.ts): a kept answer is sent with no promise.
        handler: (request, reply) => {
          if (headers) setLimitHeaders(reply, limits);
          if (cached) {
            if (answers.send(request, reply, 'json')) return undefined;
            answers.begin(request, 'json');
          }
          // matters.read is public data: it reads only the record number, never the actor.
          return op.run(undefined as never, routeInput(def, parts, request), { surface: 'v1' }).then((result) => {
            reply.status(200);
            return result;
          });
        },
      });
    },
    { prefix },
  );
}
await app.listen({ port: ctx.config.port, host: ctx.config.host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => ctx.close())
        .then(() => process.exit(0)),
  );
}
