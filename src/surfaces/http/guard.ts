// Gates 1 and 2 for every JSON route: who is calling (credentials.verify builds the Actor from the
// database as it is now) and what the credential may do (requireOperation). Then the limits.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { type OperationId, operations, requireOperation } from '../../kernel/operations.ts';
import { clientIp } from './client-ip.ts';
import { setLimitHeaders } from './limit-headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

// Query parameters that would carry a credential. A credential in a URL leaks into logs,
// histories and Referer headers, so it is refused outright (spec "Presenting a credential").
const credentialParams = ['api_key', 'apikey', 'api-key', 'key', 'access_token', 'token', 'auth', 'authorization', 'x-api-key'];

export function refuseCredentialInUrl(request: FastifyRequest): void {
  const q = request.url.indexOf('?');
  if (q < 0) return;
  const params = new URLSearchParams(request.url.slice(q + 1));
  for (const name of params.keys()) {
    if (credentialParams.includes(name.toLowerCase())) {
      throw new AppError('invalid_request', 'Credentials must not be sent in the URL; use the Authorization header.');
    }
  }
}

export type Surface = 'api' | 'mcp' | 'a2a';

export function resourceMetadataUrl(ctx: AppContext, surface: Surface): string {
  return `${ctx.config.baseUrl}/.well-known/oauth-protected-resource/${surface}`;
}

export function unauthorized(ctx: AppContext, surface: Surface, message: string): AppError {
  return new AppError('unauthorized', message, {
    'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl(ctx, surface)}"`,
  });
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
}

/** preHandler for one route: authenticate, check the operation, count against the limits. */
export function guard(ctx: AppContext, operationId: OperationId, options: GuardOptions) {
  const op = operations[operationId];
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = presentedCredential(request, options.allowApiKeyHeader);
    if (token === null) throw unauthorized(ctx, options.surface, 'A credential is required: send Authorization: Bearer <key>.');
    if (token === '') throw unauthorized(ctx, options.surface, 'The Authorization header must be "Bearer <key>".');
    const actor = await ctx.services.credentials.verify({
      token,
      ip: clientIp(request, ctx.config.trustProxy),
      surface: options.surface,
    });
    request.actor = actor;
    requireOperation(actor, operationId);
    const state = await ctx.services.credentials.limits.consume(actor, op.limit);
    setLimitHeaders(reply, state);
  };
}
