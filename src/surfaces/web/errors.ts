// The one HTML error renderer of the website and the dashboard (and of framework errors on any
// page path): the error's status, a title for it, the message, and a way back.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import { type AppError, normalizeError } from '../../kernel/errors.ts';
import { errorBox, page, sendPage } from './layout.ts';
import { viewerOf } from './signin-pages.ts';

const titles: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Changed meanwhile',
  413: 'Too large',
  414: 'Address too long',
  415: 'That did not work',
  429: 'Too many requests',
  431: 'Too large',
  503: 'Unavailable',
};

export function errorTitle(status: number): string {
  return titles[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
}

/** The page of an error; pages are never stored by any cache (sendPage). */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, err: AppError): Promise<FastifyReply> {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const viewer = request.signedIn === undefined ? null : viewerOf(request);
  const back = html`<p><a href="/">Council Tracker</a> · <a href="/account">Your account</a> · <a href="/signin">Sign in</a></p>`;
  return sendPage(reply, err.status, page(errorTitle(err.status), viewer, html`${errorBox(err.message)}${back}`));
}

/**
 * Installs the HTML error handler of a page surface. Unknown paths reach the app's own not-found
 * handler (src/app.ts), which renders this same page for every path that is not an API's.
 */
export function usePageErrors(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const err = normalizeError(error);
    if (err.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendErrorPage(request, reply, err);
  });
}
