// The website's session cookie and CSRF defence. Every POST must (1) not come from another site —
// Origin and Sec-Fetch-Site are checked when the browser sends them — and (2) carry the form's
// CSRF token: the session's synchronizer token when signed in, else a double-submit cookie.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SignedIn } from '../../modules/credentials/index.ts';
import { SESSION_COOKIE, SESSION_TTL_SECONDS, verifyCsrf } from '../../modules/sessions/index.ts';
import { field } from './form.ts';
import { setReturnTo } from './return-to.ts';

/** Before sign-in there is no session to bind a token to: a random cookie the form repeats. */
export const ANON_CSRF_COOKIE = 'ct_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person (credentials.verifySession), null when signed out; set on page surfaces. */
    signedIn?: SignedIn | null;
    /** The signed-in person's teams (the header's Dashboard link or switcher); set with signedIn. */
    teams?: readonly { id: string; name: string }[];
    /** Whether cookies this site sets are Secure (BASE_URL is https); set with signedIn. */
    secureCookies?: boolean;
  }
}

export type { SignedIn };

export function isHttps(ctx: AppContext): boolean {
  return ctx.config.baseUrl.startsWith('https:');
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/, and Secure
 * whenever the site is served over https.
 */
function cookieOptions(ctx: AppContext, maxAgeSeconds: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isHttps(ctx), maxAge: Math.max(0, Math.floor(maxAgeSeconds)) };
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, expiresAt: Date): void {
  const maxAge = Math.min(SESSION_TTL_SECONDS, (expiresAt.getTime() - ctx.clock.now().getTime()) / 1000);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(ctx, maxAge));
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.setCookie(SESSION_COOKIE, '', { ...cookieOptions(ctx, 0), expires: new Date(0) });
}

/** onRequest: the person behind the session cookie, if any; a slid expiry is written back to the cookie. */
export function loadSession(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const signedIn = await ctx.services.credentials.verifySession(request.cookies[SESSION_COOKIE]);
    request.signedIn = signedIn;
    request.secureCookies = isHttps(ctx);
    request.teams = signedIn ? (await ctx.services.accounts.memberships(signedIn.actor.account.id)).map((m) => ({ id: m.teamId, name: m.teamName })) : [];
    if (signedIn?.extended) setSessionCookie(ctx, reply, signedIn.token, signedIn.expiresAt);
  };
}

/** The anonymous CSRF token for a sign-in form, setting its cookie when the browser has none. */
export function anonymousCsrf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[ANON_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const value = randomBytes(32).toString('base64url');
  reply.setCookie(ANON_CSRF_COOKIE, value, cookieOptions(ctx, 24 * 3600));
  return value;
}

const refused = (why: string) => new AppError('forbidden', `This form could not be accepted (${why}). Go back, reload the page and try again.`);

/** Whether the request comes from this site, by the headers browsers add to every POST. */
function checkSameSite(ctx: AppContext, request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  // 'none' is a person's own action (typed URL, bookmark); anything cross-site is refused.
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') throw refused('it came from another site');
  const origin = request.headers.origin;
  // Pages are sent with Referrer-Policy: no-referrer, under which browsers send `Origin: null` on
  // the site's own form posts (Fetch §3.1 "serializing a request origin"); Sec-Fetch-Site, which no
  // page can forge, then says whether the post is the site's own.
  if (origin === 'null' && site === 'same-origin') return;
  if (typeof origin === 'string' && origin !== new URL(ctx.config.baseUrl).origin) throw refused('it came from another site');
}

/** preHandler of every website POST. */
export function requireCsrf(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    checkSameSite(ctx, request);
    const sent = field(request.body, '_csrf');
    if (!sent) throw refused('the security token is missing');
    const session = request.signedIn;
    if (session) {
      if (!verifyCsrf(session.token, sent)) throw refused('the security token is wrong or from an older session');
      return;
    }
    const cookie = request.cookies[ANON_CSRF_COOKIE];
    if (!cookie || cookie !== sent) throw refused('the security token is wrong or your browser did not send its cookie');
  };
}

/** The signed-in person, or a 303 to the sign-in page (GET) / 403 (anything else). */
export function signedIn(request: FastifyRequest, reply: FastifyReply): SignedIn | null {
  const session = request.signedIn;
  if (session) return session;
  if (request.method === 'GET') {
    // Sign-in comes back here afterwards (./return-to.ts).
    setReturnTo(request.secureCookies === true, reply, request.url);
    void reply.redirect('/signin', 303);
    return null;
  }
  throw new AppError('forbidden', 'You are signed out. Sign in again and repeat what you were doing.');
}
