// The gates of every JSON route, wired into Fastify's lifecycle: who is calling (gate 1, on
// request, before any body is read: modules/credentials builds the Actor), then, before the
// route's input is validated, the operation is admitted (gate 2 and the limits, kernel/perform.ts).
// An unauthenticated caller learns nothing about a route's inputs, and parses no body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { SurfaceName } from '../../kernel/catalogue.ts';
import { AppError } from '../../kernel/errors.ts';
import type { LimitState } from '../../kernel/limit-state.ts';
import type { LimitClass } from '../../kernel/access.ts';
import type { Admission } from '../../kernel/perform.ts';
import { resourceMetadataUrl as metadataUrl, type Surface, unauthorizedError, type VerifyInput } from '../../modules/credentials/index.ts';
import { admitNow, admitWaiting } from './admit.ts';
import { queryRefusalOf } from './body-parsers.ts';
import { clientIp } from './client-ip.ts';
import { writeMethods } from './route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (set on request by the surface's authentication). */
    actor?: Actor;
    /** The admitted operation of this request. */
    admission?: Admission;
    /** The caller's limits once this request was counted. */
    limitState?: LimitState;
  }
}

// Query parameters that would carry a credential. A credential in a URL leaks into logs,
// histories and Referer headers, so it is refused outright (spec "Presenting a credential").
const credentialParams = ['api_key', 'apikey', 'api-key', 'key', 'access_token', 'token', 'auth', 'authorization', 'x-api-key'];

export function refuseUnsafeUrl(request: FastifyRequest): void {
  // A query string past the parser's caps (./body-parsers.ts) is refused here, where it can be said.
  const refusal = queryRefusalOf(request);
  if (refusal) throw refusal;
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
  /** Which surface the routes belong to: v1 or v2 (it is recorded with what they do). */
  name: SurfaceName;
  /** The protected resource its 401 points at. */
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
  /**
   * The actor of the session the request carries, or null when it carries none (or a dead one).
   * `known` is called with the person's own actor as soon as the session is recognised, so a
   * refusal after that (a team the person is not in) still counts against their limits.
   */
  actor(request: FastifyRequest, known: (actor: Actor) => void): Promise<Actor | null>;
  /** Whether the request carries that session's CSRF token; every write by a session needs it. */
  csrfValid(request: FastifyRequest): boolean;
}

/** What the credential check reads of a request: the value, the caller's address when needed, the surface, the connection. */
function verifyInput(ctx: AppContext, request: FastifyRequest, token: string, options: GuardOptions): VerifyInput {
  return { token, ip: () => clientIp(request, ctx.config.trustProxy), surface: options.surface, connection: request.raw.socket };
}

/** Gate 1: who is calling. A Bearer credential (or X-API-Key on v1), else a signed-in session. */
export async function authenticate(ctx: AppContext, request: FastifyRequest, options: GuardOptions): Promise<Actor> {
  const token = presentedCredential(request, options.allowApiKeyHeader);
  if (token === '') throw unauthorized(ctx, options.surface, 'The Authorization header must be "Bearer <key>".');
  if (token !== null) {
    return ctx.services.credentials.verify(verifyInput(ctx, request, token, options));
  }
  const session = options.sessions
    ? await options.sessions.actor(request, (actor) => {
        request.actor = actor;
      })
    : null;
  if (session) {
    request.actor = session;
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

/**
 * The caller of a request presenting a credential kept in memory, without waiting (Credentials.
 * verifyNow); undefined when there is none such (no credential, a session, one not kept): call
 * authenticate. A refusal throws as authenticate's.
 */
function authenticateNow(ctx: AppContext, request: FastifyRequest, options: GuardOptions): Actor | undefined {
  const token = presentedCredential(request, options.allowApiKeyHeader);
  if (!token) return undefined;
  return ctx.services.credentials.verifyNow(verifyInput(ctx, request, token, options));
}

/** Ends a callback-style hook: `step` done, or its error passed on. */
function finish(done: (err?: Error) => void, step: () => void): void {
  try {
    step();
  } catch (err) {
    done(err as Error);
    return;
  }
  done();
}

/**
 * Every request of an API surface authenticates first (onRequest), then its URL is checked, so an
 * authenticated refusal carries the caller's limit headers. Without a usable credential a URL
 * that carries one is still the more useful thing to say. The hook takes a callback rather than
 * returning a promise: a credential kept in memory (the common case) is checked and the request
 * goes on in the same turn, with no promise to settle (issue 23, the guard's cost per request).
 */
export function authenticateRequests(app: FastifyInstance, ctx: AppContext, options: GuardOptions): void {
  const authenticated = (request: FastifyRequest, actor: Actor) => () => {
    request.actor = actor;
    refuseUnsafeUrl(request);
  };
  const refused = (request: FastifyRequest, err: unknown) => () => {
    refuseUnsafeUrl(request);
    throw err;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    let actor: Actor | undefined;
    try {
      actor = authenticateNow(ctx, request, options);
    } catch (err) {
      finish(done, refused(request, err));
      return;
    }
    if (actor) finish(done, authenticated(request, actor));
    else {
      authenticate(ctx, request, options).then(
        (found) => finish(done, authenticated(request, found)),
        (err: unknown) => finish(done, refused(request, err)),
      );
    }
  });
}

/** Steps the route registration slots into the admission. */
export interface GuardSteps {
  /**
   * Runs after the operation check and before the limits are counted (the idempotency claim). It
   * may name the limit class to count instead: an idempotent replay does not use an AI answer.
   */
  beforeLimits?(request: FastifyRequest, reply: FastifyReply): Promise<LimitClass | undefined>;
}

/**
 * preValidation of one route: the operation is admitted (access checked once, request counted;
 * ./admit.ts). Like authentication, a callback-style hook: a request counted from memory goes on
 * in the same turn.
 */
export function admitOperation(ctx: AppContext, operationId: OperationId, options: GuardOptions, steps: GuardSteps = {}) {
  const fixed = Object.freeze({ call: Object.freeze({ surface: options.name }), resource: options.surface });
  // Only a step before the limits depends on the request; without one the options are the route's own.
  const optionsOf = steps.beforeLimits
    ? (request: FastifyRequest, reply: FastifyReply) => ({ ...fixed, beforeLimits: () => steps.beforeLimits!(request, reply) })
    : () => fixed;
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const admitOptions = optionsOf(request, reply);
    let admitted: Admission | undefined;
    try {
      admitted = admitNow(ctx, request, reply, operationId, admitOptions);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (admitted) done();
    else admitWaiting(ctx, request, reply, operationId, admitOptions).then(() => done(), done);
  };
}
