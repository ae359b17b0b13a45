// The website's session cookie and CSRF defence. Every POST must (1) not come from another site —
// Origin and Sec-Fetch-Site are checked when the browser sends them — and (2) carry the form's
// CSRF token: the session's synchronizer token when signed in, else a double-submit cookie.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type SessionInfo, SESSION_COOKIE, SESSION_TTL_SECONDS, verifyCsrf } from '../../modules/sessions/index.ts';
import { readCookie, serializeCookie } from './cookies.ts';
import { field } from './form.ts';

/** Before sign-in there is no session to bind a token to: a random cookie the form repeats. */
export const ANON_CSRF_COOKIE = 'ct_csrf';

export interface WebSession {
  token: string;
  info: SessionInfo;
}

declare module 'fastify' {
  interface FastifyRequest {
    webSession?: WebSession | null;
  }
}

export function isHttps(ctx: AppContext): boolean {
  return ctx.config.baseUrl.startsWith('https:');
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, expiresAt: Date): void {
  const maxAge = Math.min(SESSION_TTL_SECONDS, (expiresAt.getTime() - ctx.clock.now().getTime()) / 1000);
  reply.header('Set-Cookie', serializeCookie(SESSION_COOKIE, token, { maxAgeSeconds: maxAge, secure: isHttps(ctx) }));
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.header('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0, secure: isHttps(ctx) }));
}

/** onRequest: the session behind the cookie, if any; a slid expiry is written back to the cookie. */
export function loadSession(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const info = token ? await ctx.services.sessions.resolve(token) : null;
    request.webSession = token && info ? { token, info } : null;
    if (token && info?.extended) setSessionCookie(ctx, reply, token, info.expiresAt);
  };
}

/** The anonymous CSRF token for a sign-in form, setting its cookie when the browser has none. */
export function anonymousCsrf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request.headers.cookie, ANON_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const value = randomBytes(32).toString('base64url');
  reply.header('Set-Cookie', serializeCookie(ANON_CSRF_COOKIE, value, { maxAgeSeconds: 24 * 3600, secure: isHttps(ctx) }));
  return value;
}

const refused = (why: string) =>
  new AppError('forbidden', `This form could not be accepted (${why}). Go back, reload the page and try again.`);

/** Whether the request comes from this site, by the headers browsers add to every POST. */
function checkSameSite(ctx: AppContext, request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  // 'none' is a person's own action (typed URL, bookmark); anything cross-site is refused.
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') throw refused('it came from another site');
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(ctx.config.baseUrl).origin) throw refused('it came from another site');
}

/** preHandler of every website POST. */
export function requireCsrf(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    checkSameSite(ctx, request);
    const sent = field(request.body, '_csrf');
    if (!sent) throw refused('the security token is missing');
    const session = request.webSession;
    if (session) {
      if (!verifyCsrf(session.token, sent)) throw refused('the security token is wrong or from an older session');
      return;
    }
    const cookie = readCookie(request.headers.cookie, ANON_CSRF_COOKIE);
    if (!cookie || cookie !== sent) throw refused('the security token is wrong or your browser did not send its cookie');
  };
}

/** The signed-in person, or a 303 to the sign-in page (GET) / 403 (anything else). */
export function signedIn(request: FastifyRequest, reply: FastifyReply): WebSession | null {
  const session = request.webSession;
  if (session) return session;
  if (request.method === 'GET') {
    void reply.redirect('/signin', 303);
    return null;
  }
  throw new AppError('forbidden', 'You are signed out. Sign in again and repeat what you were doing.');
}
