// The v2 OpenAPI description (spec "Versioning"): generated from the same route definitions that
// serve v2, every operation with its scopes in `x-scopes`, errors in the v2 envelope.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { errorCatalogue } from '../../kernel/errors.ts';
import { SESSION_COOKIE } from '../../modules/sessions/index.ts';
import { buildOpenApi } from '../http/openapi.ts';
import type { RouteDef } from '../http/route.ts';

export const v2ErrorSchema = Type.Object({
  error: Type.Object({
    code: Type.String({ enum: Object.keys(errorCatalogue), description: 'Stable machine-readable code (decisions.md, "Errors").' }),
    message: Type.String({ description: 'What went wrong, for people.' }),
  }),
});

const description = [
  'Public council data plus team and personal data for dashboard members.',
  'Credential: Authorization: Bearer <API key or OAuth access token>, or a signed-in dashboard session cookie',
  "(writes by a session need its X-CSRF-Token header; X-Team-Id picks one of the person's teams).",
  'X-API-Key is accepted on v1 only. Lists take limit (1-200, default 50) and cursor (meta.nextCursor of the previous page).',
  'Every POST, PUT, PATCH and DELETE takes an Idempotency-Key.',
].join(' ');

export function v2OpenApi(ctx: AppContext, routes: readonly RouteDef[]) {
  return buildOpenApi(ctx.performer.get, routes, {
    title: 'Council Tracker API v2',
    version: '2.0.0',
    serverUrl: `${ctx.config.baseUrl}/api/v2`,
    description,
    withScopes: true,
    errorSchema: v2ErrorSchema,
    apiKeyHeader: false,
    sessionCookie: SESSION_COOKIE,
  });
}
