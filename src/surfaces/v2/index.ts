// JSON API v2 at /api/v2 (spec "v2 rules common to all routes"), with its OpenAPI description at
// /api/v2/openapi.json. The public data routes are v1's own bindings (public.read); versions
// differ by error renderer, never by copied handlers. Errors render as
// `{ error: { code, message } }`. Bearer only, or a signed-in dashboard session.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { authenticateRequests, type GuardOptions, type SessionAuth } from '../http/guard.ts';
import { registerRoutes } from '../http/register.ts';
import { renderV2, useRenderer } from '../http/render.ts';
import type { RouteDef } from '../http/route.ts';
import { answerRoutes, meRoutes, publicRoutes } from '../v1/public-routes.ts';
import { v2OpenApi } from './openapi.ts';
import { sessionAuth } from './session-auth.ts';
import { keyRoutes } from './key-routes.ts';
import { memberRoutes, webhookRoutes } from './settings-routes.ts';
import { peopleRoutes, teamRoutes } from './team-routes.ts';

/**
 * v1 data routes whose v2 path the spec gives to a team route: `GET /api/v2/people` and
 * `/people/{id}` are the people routes (people.read), not the public list (public.read).
 */
export const replacedInV2: ReadonlySet<string> = new Set(['GET /people', 'GET /people/:id']);

export const v2Routes: readonly RouteDef[] = [
  ...meRoutes,
  ...publicRoutes.filter((r) => !replacedInV2.has(`${r.method} ${r.path}`)),
  ...answerRoutes,
  ...teamRoutes,
  ...peopleRoutes,
  ...keyRoutes,
  ...memberRoutes,
  ...webhookRoutes,
];

export interface V2Options {
  /** Extra routes on the same rules. */
  routes?: readonly RouteDef[];
  /** How sessions are recognised; defaults to the website's session cookie. */
  sessions?: SessionAuth;
}

export function v2Surface(ctx: AppContext, options: V2Options = {}) {
  return async function v2(app: FastifyInstance): Promise<void> {
    const routes = [...v2Routes, ...(options.routes ?? [])];
    const document = v2OpenApi(ctx, routes);
    const guard: GuardOptions = { name: 'v2', surface: 'api', allowApiKeyHeader: false, sessions: options.sessions ?? sessionAuth(ctx) };
    // The description is public: it is how a client learns what credential to get.
    app.get('/v2/openapi.json', async () => document);
    await app.register(
      async (scope) => {
        useRenderer(scope, ctx, renderV2);
        authenticateRequests(scope, ctx, guard);
        registerRoutes(scope, ctx, routes, guard);
      },
      { prefix: '/v2' },
    );
  };
}
