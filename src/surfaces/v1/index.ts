// JSON API v1 at /api/v1, with its OpenAPI description at /api/openapi.json. Errors render as
// `{ detail, code }`; X-API-Key is accepted besides Bearer.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { authenticateRequests, type GuardOptions } from '../http/guard.ts';
import { buildOpenApi } from '../http/openapi.ts';
import { registerRoutes } from '../http/register.ts';
import { renderV1, useRenderer } from '../http/render.ts';
import type { RouteDef } from '../http/route.ts';
import { answerRoutes, meRoutes, publicRoutes } from './public-routes.ts';

export const v1Routes: readonly RouteDef[] = [...meRoutes, ...publicRoutes, ...answerRoutes];
export const v1Guard: GuardOptions = { name: 'v1', surface: 'api', allowApiKeyHeader: true };

export function v1Surface(ctx: AppContext) {
  return async function v1(app: FastifyInstance): Promise<void> {
    const document = buildOpenApi(ctx.performer.get, v1Routes, {
      title: 'Council Tracker API v1',
      version: '1.0.0',
      serverUrl: `${ctx.config.baseUrl}/api/v1`,
      withScopes: false,
    });
    app.get('/openapi.json', async () => document);
    await app.register(
      async (scope) => {
        useRenderer(scope, ctx, renderV1);
        authenticateRequests(scope, ctx, v1Guard);
        registerRoutes(scope, ctx, v1Routes, v1Guard);
      },
      { prefix: '/v1' },
    );
  };
}
