// Where sign-in goes back to: a page that sent a signed-out person to /signin (the OAuth consent
// page) leaves its own path in a short-lived cookie, and confirming the sign-in link returns
// there instead of the account page. Only paths on this site that a page registered are
// followed, so the cookie cannot make sign-in an open redirect.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { isHttps } from './security.ts';

const RETURN_COOKIE = 'ct_return';
/** Paths sign-in may return to. */
const returnable = /^\/oauth\/authorize\?[^\s]*$/;

export function setReturnTo(ctx: AppContext, reply: FastifyReply, path: string): void {
  if (!returnable.test(path) || path.length > 3000) return;
  reply.setCookie(RETURN_COOKIE, path, { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(ctx), maxAge: ctx.config.ttl.signinLink });
}

/** The path to go back to after sign-in, if a page left one; the cookie is cleared either way. */
export function takeReturnTo(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string | null {
  const path = request.cookies[RETURN_COOKIE];
  if (path === undefined) return null;
  reply.setCookie(RETURN_COOKIE, '', { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(ctx), maxAge: 0, expires: new Date(0) });
  return returnable.test(path) ? path : null;
}
