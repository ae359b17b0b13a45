// Error renderers, one per surface (house style: "One error type, rendered once per surface").
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type AppError, normalizeError } from '../../kernel/errors.ts';

export type ErrorRenderer = (err: AppError) => unknown;

/** v1: `{ detail, code }` (decisions.md, "Errors"). */
export const renderV1: ErrorRenderer = (err) => ({ detail: err.message, code: err.code });
/** v2: `{ error: { code, message } }`. */
export const renderV2: ErrorRenderer = (err) => ({ error: { code: err.code, message: err.message } });

export function sendError(reply: FastifyReply, err: AppError, render: ErrorRenderer): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.status(err.status).type('application/json; charset=utf-8').send(render(err));
}

/** Installs the error and not-found handlers of one encapsulated surface. */
export function useRenderer(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((error, request, reply) => {
    const err = normalizeError(error);
    if (err.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, err, render);
  });
  app.setNotFoundHandler((request, reply) => {
    const err = normalizeError({ statusCode: 404, message: `No route ${request.method} ${request.url.split('?')[0]}.` });
    return sendError(reply, err, render);
  });
}
