// OpenAPI 3.1 descriptions generated from the route tables and the operations they bind: the same
// TypeBox schemas that validate requests and filter responses. v2 adds `x-scopes` to every
// operation.
import type { TSchema } from 'typebox';
import type { Operation } from '../../kernel/catalogue.ts';
import { errorCatalogue } from '../../kernel/errors.ts';
import { type RouteDef, routeParts, successStatus, writeMethods } from './route.ts';

export interface OpenApiOptions {
  title: string;
  version: string;
  serverUrl: string;
  description?: string;
  withScopes: boolean;
  /** Schema of the error body for this surface. */
  errorSchema?: TSchema;
  /** Whether the surface accepts X-API-Key besides Bearer (v1 does, v2 does not). Default true. */
  apiKeyHeader?: boolean;
  /** Name of a session cookie the surface also accepts (v2: signed-in dashboard sessions). */
  sessionCookie?: string;
}

// Every write route takes an Idempotency-Key (surfaces/http/idempotency.ts).
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "1 to 255 characters (counted as characters, not bytes: send it UTF-8 encoded), unique per intended change. Scoped to the credential's owner; " +
    'the first answer is replayed for 24 hours with Idempotent-Replayed: true, and only to the person who sent it: the same key from another person of the same team is 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function plain(schema: unknown): any {
  // TypeBox schemas are JSON Schema; a JSON round trip drops its symbols and functions.
  return JSON.parse(JSON.stringify(schema));
}

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(schema: TSchema | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const s = plain(schema);
  const required = new Set<string>(s.required ?? []);
  return Object.entries<any>(s.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      // A parameter with a default (a list's `limit`) may be left out: the default applies.
      required: where === 'path' ? true : required.has(name) && prop.default === undefined,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

export function buildOpenApi(operation: (id: RouteDef['operation']) => Operation, routes: readonly RouteDef[], options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = options.errorSchema
    ? plain(options.errorSchema)
    : { type: 'object', properties: { detail: { type: 'string' }, code: { type: 'string', enum: Object.keys(errorCatalogue) } }, required: ['detail', 'code'] };
  const apiKey = options.apiKeyHeader !== false;
  const alternatives = [...(apiKey ? [{ apiKey: [] }] : []), ...(options.sessionCookie ? [{ session: [] }] : [])];
  for (const route of routes) {
    const op = operation(route.operation);
    const parts = routeParts(route, op);
    const scopes = [...op.access.scopes];
    const write = writeMethods.has(route.method);
    const status = String(successStatus(route));
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = {
      operationId: route.operation.replace(/[.-](\w)/g, (_m, c: string) => c.toUpperCase()),
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      security: [{ bearer: scopes }, ...alternatives],
      ...(options.withScopes ? { 'x-scopes': scopes } : {}),
      parameters: [...parameters(parts.params, 'path'), ...parameters(parts.querystring, 'query'), ...(write ? [idempotencyKeyParameter] : [])],
      ...(parts.body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(parts.body) } } } } : {}),
      responses: {
        [status]: { description: 'Success', content: { 'application/json': { schema: plain(op.output) } } },
        '400': { description: 'Invalid request', content: { 'application/json': { schema: errorSchema } } },
        '401': { description: 'Missing or invalid credential', content: { 'application/json': { schema: errorSchema } } },
        '403': { description: 'The credential may not do this', content: { 'application/json': { schema: errorSchema } } },
        ...(parts.params ? { '404': { description: 'No such record', content: { 'application/json': { schema: errorSchema } } } } : {}),
        ...(write
          ? {
              '409': { description: 'The first request with this Idempotency-Key is still running', content: { 'application/json': { schema: errorSchema } } },
              '422': { description: 'The Idempotency-Key was used for a different request', content: { 'application/json': { schema: errorSchema } } },
            }
          : {}),
        '429': { description: 'A rate limit is used up; see Retry-After', content: { 'application/json': { schema: errorSchema } } },
        // AI answers depend on the language model, when one is configured.
        ...(op.limit === 'ai'
          ? { '502': { description: 'The language model timed out or failed (no AI answer used)', content: { 'application/json': { schema: errorSchema } } } }
          : {}),
        '503': { description: 'The database cannot be reached', content: { 'application/json': { schema: errorSchema } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, ...(options.description ? { description: options.description } : {}) },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (ctk_…) or OAuth access token (cto_…).' },
        ...(apiKey ? { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } : {}),
        ...(options.sessionCookie
          ? {
              session: {
                type: 'apiKey',
                in: 'cookie',
                name: options.sessionCookie,
                description: 'A signed-in dashboard session; writes also need its X-CSRF-Token header.',
              },
            }
          : {}),
      },
    },
    paths,
  };
}
