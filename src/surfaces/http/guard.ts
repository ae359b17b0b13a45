// Gates 1 and 2 for every JSON route: who is calling (credentials.verify builds the Actor from the
// database as it is now) and what the credential may do (requireOperation). Then the limits.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { type LimitClass, type OperationId, operations, requireOperation } from '../../kernel/operations.ts';
import { resourceMetadataUrl as metadataUrl, type Surface, unauthorizedError } from '../../modules/credentials/index.ts';
import { clientIp } from './client-ip.ts';
import { setLimitHeaders } from '../../kernel/limit-state.ts';
import { writeMethods } from './route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

// Query parameters that would carry a credential. A credential in a URL leaks into logs,
// histories and Referer headers, so it is refused outright (spec "Presenting a credential").
const credentialParams = ['api_key', 'apikey', 'api-key', 'key', 'access_token', 'token', 'auth', 'authorization', 'x-api-key'];

export function refuseUnsafeUrl(request: FastifyRequest): void {
  // A NUL character can be stored nowhere (PostgreSQL text refuses it): refuse it at the door.
  if (/%00/.test(request.url) || request.url.includes('\u0000')) {
    throw new AppError('invalid_request', 'The URL contains a NUL character (%00).');
  }
  const q = request.url.indexOf('?');
  if (q < 0) return;
  const params = new URLSearchParams(request.url.slice(q + 1));
  for (const name of params.keys()) {
    if (credentialParams.includes(name.toLowerCase())) {
      throw new AppError('invalid_request', 'Credentials must not be sent in the URL; use the Authorization header.');
    }
  }
}

export type { Surface };

export function resourceMetadataUrl(ctx: AppContext, surface: Surface): string {
  return metadataUrl(ctx.config.baseUrl, surface);
}

export function unauthorized(ctx: AppContext, surface: Surface, message: string): AppError {
  return unauthorizedError(ctx.config.baseUrl, surface, message);
}

/** The credential a request presents: Bearer on every surface, X-API-Key on the JSON API too. */
export function presentedCredential(request: FastifyRequest, allowApiKeyHeader: boolean): string | null {
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && auth.length > 0) {
    const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(auth);
    return m ? m[1]! : '';
  }
  const header = request.headers['x-api-key'];
  if (allowApiKeyHeader && typeof header === 'string') return header.trim();
  return null;
}

export interface GuardOptions {
  surface: Surface;
  allowApiKeyHeader: boolean;
  /**
   * Signed-in dashboard sessions (v2 only, spec "v2 rules" 1). Consulted only when the request
   * presents no Bearer credential, so a key always means the key.
   */
  sessions?: SessionAuth;
}

/** How a surface turns the dashboard's session cookie into an Actor (surfaces/v2/session-auth.ts). */
export interface SessionAuth {
  /** The actor of the session the request carries, or null when it carries none (or a dead one). */
  actor(request: FastifyRequest): Promise<Actor | null>;
  /** Whether the request carries that session's CSRF token; every write by a session needs it. */
  csrfValid(request: FastifyRequest): boolean;
}

/** Steps the route registration slots into the guard. */
export interface GuardSteps {
  /**
   * Runs after the operation check and before the limits are counted (the idempotency claim). It
   * may name the limit class to count instead: an idempotent replay does not use an AI answer.
   */
  beforeLimits?(request: FastifyRequest, reply: FastifyReply): Promise<LimitClass | undefined>;
}

/** Gate 1: who is calling. A Bearer credential (or X-API-Key on v1), else a signed-in session. */
export async function authenticate(ctx: AppContext, request: FastifyRequest, options: GuardOptions): Promise<Actor> {
  const token = presentedCredential(request, options.allowApiKeyHeader);
  if (token === '') throw unauthorized(ctx, options.surface, 'The Authorization header must be "Bearer <key>".');
  if (token !== null) {
    return ctx.services.credentials.verify({ token, ip: () => clientIp(request, ctx.config.trustProxy), surface: options.surface });
  }
  const session = options.sessions ? await options.sessions.actor(request) : null;
  if (session) {
    // A cookie rides along on cross-site requests; the CSRF token, readable only by the
    // dashboard's own pages, shows the write really comes from them (OWASP synchronizer token).
    if (writeMethods.has(request.method) && !options.sessions!.csrfValid(request)) {
      throw new AppError('forbidden', 'A write made with a signed-in session needs the X-CSRF-Token header of that session.');
    }
    return session;
  }
  const hint = !options.allowApiKeyHeader && request.headers['x-api-key'] !== undefined ? ' X-API-Key is accepted on /api/v1 only.' : '';
  throw unauthorized(ctx, options.surface, `A credential is required: send Authorization: Bearer <key>.${hint}`);
}

/** preValidation for one route: authenticate, check the operation, count against the limits. */
export function guard(ctx: AppContext, operationId: OperationId, options: GuardOptions, steps: GuardSteps = {}) {
  const op = operations[operationId];
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const actor = await authenticate(ctx, request, options);
    request.actor = actor;
    requireOperation(actor, operationId);
    const limitClass = (await steps.beforeLimits?.(request, reply)) ?? op.limit;
    const state = await ctx.services.credentials.limits.consume(actor, limitClass);
    setLimitHeaders(reply, state);
  };
}
