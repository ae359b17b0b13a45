// JSON API v1 at /api/v1, with its OpenAPI description at /api/openapi.json. Errors render as
// `{ detail, code }`; X-API-Key is accepted besides Bearer.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { buildOpenApi } from '../http/openapi.ts';
import { registerRoutes } from '../http/register.ts';
import { renderV1, useRenderer } from '../http/render.ts';
import type { RouteDef } from '../http/route.ts';
import { meRoutes } from './me-routes.ts';
import { publicRoutes } from './public-routes.ts';

export function v1Routes(ctx: AppContext): RouteDef[] {
  return [...meRoutes(ctx), ...publicRoutes(ctx)];
}

export function v1Surface(ctx: AppContext) {
  return async function v1(app: FastifyInstance): Promise<void> {
    const routes = v1Routes(ctx);
    const document = buildOpenApi(routes, {
      title: 'Council Tracker API v1',
      version: '1.0.0',
      serverUrl: `${ctx.config.baseUrl}/api/v1`,
      withScopes: false,
    });
    app.get('/openapi.json', async () => document);
    await app.register(
      async (scope) => {
        useRenderer(scope, renderV1);
        registerRoutes(scope, ctx, routes, { surface: 'api', allowApiKeyHeader: true });
      },
      { prefix: '/v1' },
    );
  };
}
