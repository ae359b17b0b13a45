// Errors rendered once per surface (house style: "One error type, rendered once per surface").
// Anything thrown goes through normalizeError (kernel/errors.ts); each surface owns a renderer of
// the one AppError: v1 `{ detail, code }`, v2 `{ error: { code, message } }`, OAuth's RFC 6749
// §5.2 shape, GraphQL's `errors[].extensions.code`, an MCP `isError` tool result, JSON-RPC errors
// (A2A and MCP before their SDK answers), and an HTML page
// (surfaces/web/errors.ts). The framework's own errors (a bad URL, an over-long path parameter, a
// body too large or of the wrong type) come here too, never in the framework's shape.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, normalizeError } from '../../kernel/errors.ts';
import { type LimitState, setLimitHeaders } from '../../kernel/limit-state.ts';

export type ErrorRenderer = (err: AppError) => unknown;

/** v1: `{ detail, code }` (decisions.md, "Errors"). */
export const renderV1: ErrorRenderer = (err) => ({ detail: err.message, code: err.code });
/** v2: `{ error: { code, message } }`. */
export const renderV2: ErrorRenderer = (err) => ({ error: { code: err.code, message: err.message } });

/**
 * OAuth endpoints (RFC 6749 §5.2): `{ error, error_description }` where `error` is one of the
 * RFC's codes. Codes of the service map onto the nearest RFC code; an OAuth module throws
 * AppErrors whose code already is an RFC code where one fits.
 */
export const renderOAuth: ErrorRenderer = (err) => ({ error: err.protocolCode ?? oauthCode(err), error_description: err.message });
function oauthCode(err: AppError): string {
  if (err.status === 401) return 'invalid_client';
  if (err.code === 'scope_missing') return 'invalid_scope';
  if (err.status >= 500) return err.code === 'unavailable' ? 'temporarily_unavailable' : 'server_error';
  if (err.status === 429) return 'slow_down';
  return 'invalid_request';
}

/** GraphQL over HTTP: one error with the catalogue's code in `extensions.code`. */
export const renderGraphQL: ErrorRenderer = (err) => ({ errors: [{ message: err.message, extensions: { code: err.code, status: err.status } }] });

/** MCP (tools/call): a tool result flagged `isError`, so the model reads why the call failed. */
export const renderMcp: ErrorRenderer = (err) => ({ content: [{ type: 'text', text: `${err.code}: ${err.message}` }], isError: true });

/**
 * JSON-RPC surfaces (A2A, MCP) before their SDK answers (no credential, a missing scope, a limit,
 * a body that is not JSON): a JSON-RPC 2.0 error object (JSON-RPC §5.1) with the HTTP status of
 * the catalogue's code, and the catalogue's code and status in `data`.
 */
export const renderJsonRpc: ErrorRenderer = (err) => ({
  jsonrpc: '2.0',
  id: null,
  error: {
    // -32700 parse error, -32600 invalid request, -32603 internal error (JSON-RPC 2.0 §5.1).
    code: err.status >= 500 ? -32603 : /JSON/.test(err.message) && err.status === 400 ? -32700 : -32600,
    message: err.message,
    data: { code: err.code, status: err.status },
  },
});

/**
 * The limit headers an authenticated answer carries, whatever its status: the state counted when
 * the operation was admitted or refused; for a request refused before any operation (a malformed
 * body, an unknown path) it is counted now. Counting may itself refuse (429): that refusal is the
 * answer then, and, as every 429, it is not counted.
 */
export async function countedError(ctx: AppContext, request: FastifyRequest, err: AppError): Promise<{ err: AppError; limits: LimitState | null }> {
  const limits = err.limits ?? request.limitState ?? null;
  if (limits || !request.actor || err.status === 401 || err.status === 429 || err.status >= 500) return { err, limits };
  try {
    const counted = await ctx.performer.countRefusal(request.actor);
    request.limitState = counted;
    return { err, limits: counted };
  } catch (refusal) {
    const e = normalizeError(refusal);
    return { err: e, limits: null };
  }
}

/**
 * An admitted request that fails before its operation ran (Fastify refused its body) made no AI
 * answer: the one it holds is given back (kernel/perform.ts), and its headers say so.
 */
async function giveBackUnanswered(ctx: AppContext, request: FastifyRequest): Promise<void> {
  if (!request.admission) return;
  try {
    const limits = await ctx.performer.abandon(request.admission);
    if (limits) request.limitState = limits;
  } catch (err) {
    request.log.warn({ err }, 'giving back an unused AI answer failed; it stays counted');
  }
}

export function sendError(reply: FastifyReply, err: AppError, render: ErrorRenderer, limits: LimitState | null = null): FastifyReply {
  if (limits) setLimitHeaders(reply, limits);
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  // An error is about this request and this caller: no shared cache keeps it.
  reply.header('Cache-Control', 'private, no-store');
  return reply.status(err.status).type('application/json; charset=utf-8').send(render(err));
}

/**
 * The JSON renderer of the surface a path belongs to, for errors met before any surface (the HTTP
 * parser's, the router's): each protocol in its own shape — GraphQL's `errors`, JSON-RPC's error
 * object at /mcp and /a2a, RFC 6749 §5.2 at the OAuth endpoints, v2 and v1 — or null for the
 * website's pages.
 */
export function rendererForPath(path: string): ErrorRenderer | null {
  if (/^\/api\/graphql(\/|\?|$)/.test(path)) return renderGraphQL;
  if (/^\/(mcp|a2a)(\/|\?|$)/.test(path)) return renderJsonRpc;
  if (/^\/oauth\/(?!authorize(\/|\?|$))/.test(path)) return renderOAuth;
  if (/^\/api\/v2(\/|\?|$)/.test(path)) return renderV2;
  if (/^\/(api|oauth|agent|\.well-known)(\/|\?|$)/.test(path)) return renderV1;
  return null;
}

/** The message of the 404 for a path no route answers. */
export function noRoute(request: FastifyRequest): AppError {
  return new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
}

/** Installs the error and not-found handlers of one JSON surface. */
export function useRenderer(app: FastifyInstance, ctx: AppContext, render: ErrorRenderer): void {
  app.setErrorHandler(async (error, request, reply) => {
    const normalized = normalizeError(error);
    if (normalized.status >= 500) request.log.error({ err: error }, 'request failed');
    await giveBackUnanswered(ctx, request);
    const { err, limits } = await countedError(ctx, request, normalized);
    return sendError(reply, err, render, limits);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const { err, limits } = await countedError(ctx, request, noRoute(request));
    return sendError(reply, err, render, limits);
  });
}
