// buildApp(ctx): the HTTP surfaces over the module operations. It never listens (server.ts does).
import { AsyncResource } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import cookie from '@fastify/cookie';
import Fastify, { type ConnectionError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { DbBudget, withBudget } from './kernel/db-budget.ts';
import { normalizeError } from './kernel/errors.ts';
import { clientIp } from './surfaces/http/client-ip.ts';
import { dashboardSurface } from './surfaces/dashboard/index.ts';
import { querystringParser, useBodyParsers } from './surfaces/http/body-parsers.ts';
import { refuseUnsafeUrl } from './surfaces/http/guard.ts';
import { renderV1, rendererForPath, sendError } from './surfaces/http/render.ts';
import { ajvOptions, lazySchemaController } from './surfaces/http/lazy-schemas.ts';
import { useSecurityHeaders } from './surfaces/http/security-headers.ts';
import { v1Surface } from './surfaces/v1/index.ts';
import { v2Surface } from './surfaces/v2/index.ts';
import { a2aSurface } from './surfaces/a2a/index.ts';
import { agentSurface } from './surfaces/agent/index.ts';
import { bulkSurface } from './surfaces/bulk/index.ts';
import { mcpSurface } from './surfaces/mcp/index.ts';
import { oauthSurface } from './surfaces/oauth/index.ts';
import { graphqlSurface } from './surfaces/graphql/index.ts';
import { pagesSurface } from './surfaces/pages/index.ts';
import { sendErrorPage } from './surfaces/web/errors.ts';
import { webSurface } from './surfaces/web/index.ts';
import { webExtrasSurface } from './surfaces/pages/extras-surface.ts';
import { wellKnownSurface } from './surfaces/wellknown/index.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Surfaces that authenticate every request before checking its URL. */
const checksUrlItself = (url: string) => /^\/api\/v[12](\/|\?|$)/.test(url);

/**
 * Errors the framework meets before any surface (a malformed percent escape, an over-long path
 * parameter) in the shape of the surface the path belongs to (surfaces/http/render.ts).
 */
function frameworkError(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const err = normalizeError(error);
  const render = rendererForPath(request.url);
  return render ? sendError(reply, err, render) : sendErrorPage(request, reply, err);
}

/**
 * Requests the HTTP parser refuses before Fastify sees them (headers too large, a method it does
 * not know, a malformed request line): the answer is written on the socket, in the shape of the
 * path's surface when the request line can still be read (JSON for a page's path too: no page can
 * be made from a request that was never read).
 */
function clientError(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 400 ? 'The request could not be read: check the method (GET, POST, PUT, PATCH, DELETE), the request line and the headers.' : `${status}`;
  const appError = normalizeError(Object.assign(new Error(message), { statusCode: status }));
  // Node passes the bytes it read as a Buffer (Fastify's type describes its JSON form).
  const raw = err.rawPacket as unknown as Buffer | undefined;
  const path = /^[A-Z]+ (\S+)/.exec(raw?.toString('latin1') ?? '')?.[1] ?? '/api/';
  const body = JSON.stringify((rendererForPath(path) ?? renderV1)(appError));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Every request's database work runs under its budget (kernel/db-budget.ts), found through
 * AsyncLocalStorage by whatever statement the request makes. The body is read in the socket's own
 * context, so the request's context is entered again before validation (as @fastify/request-context
 * does). Until its credential is known, a request takes its turns as its client address.
 */
function budgetRequests(app: FastifyInstance, ctx: AppContext): void {
  const scopes = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (request, _reply, done) => {
    const budget = new DbBudget(ctx.config.requestDbBudgetMs, `ip:${clientIp(request, ctx.config.trustProxy)}`);
    withBudget(budget, () => {
      scopes.set(request, new AsyncResource('council-request'));
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
}

/** The Fastify instance every surface mounts on: options, request id, cookies, capped parsers, security headers, framework errors. */
export function createFastify(ctx: AppContext): FastifyInstance {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true, querystringParser },
    ajv: ajvOptions,
    schemaController: lazySchemaController,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  });
  budgetRequests(app, ctx);
  // One cookie parser for every surface (RFC 6265; values URL-decoded).
  void app.register(cookie);
  // A callback hook (every request passes it): no promise to settle per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // Draining (server.ts): each answer ends its connection, so a balancer that keeps connections
    // open (deploy/haproxy.cfg) sends its next request on a new one, to another instance.
    if (ctx.lifecycle.draining) reply.header('connection', 'close');
    // The JSON APIs check the URL right after authenticating, so their refusal carries the limit
    // headers of an authenticated answer (surfaces/http/guard.ts); every other path is checked here.
    try {
      if (!checksUrlItself(request.url)) refuseUnsafeUrl(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
  useBodyParsers(app);
  useSecurityHeaders(app, ctx.config);
  // Errors outside any surface render in the v1 shape, or as a page.
  app.setErrorHandler(async (error, request, reply) => frameworkError(error as Error, request, reply));
  app.setNotFoundHandler(async (request, reply) =>
    frameworkError(Object.assign(new Error(`No route ${request.method} ${request.url.split('?')[0]}.`), { statusCode: 404 }), request, reply),
  );
  return app;
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = createFastify(ctx);
  await mountSurfaces(app, ctx);
  return app;
}

/** Every surface, on the instance createFastify made. */
export async function mountSurfaces(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(wellKnownSurface(ctx));
  await app.register(v1Surface(ctx), { prefix: '/api' });
  await app.register(webSurface(ctx));
  await app.register(dashboardSurface(ctx));
  await app.register(v2Surface(ctx), { prefix: '/api' });
  await app.register(a2aSurface(ctx));
  await app.register(agentSurface(ctx), { prefix: '/agent' });
  await app.register(mcpSurface(ctx));
  await app.register(oauthSurface(ctx));
  await app.register(graphqlSurface(ctx));
  await app.register(webExtrasSurface(ctx));
  await app.register(pagesSurface(ctx));
  await app.register(bulkSurface(ctx));
}
