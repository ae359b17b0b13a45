// Where sign-in goes back to: a page that sent a signed-out person to /signin (a signed-in page,
// the OAuth consent page, `/signin?return=/matters/…` from a public page) leaves its own path in a
// short-lived cookie, and confirming the sign-in link returns there. Only a path on this site is
// ever followed (`safeReturnPath`), so neither the cookie nor the query can make sign-in an open
// redirect.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';

const RETURN_COOKIE = 'ct_return';
/** Long enough to ask for a link and open it (links live 15 minutes by default). */
const RETURN_TTL_SECONDS = 3600;
const MAX_PATH = 3000;
const probe = new URL('https://council.invalid/');

/**
 * `path` if it is a path on this site a browser will resolve to this site, else null. Refused: any
 * scheme or authority (`https://evil`, `//evil`), a backslash (`/\evil`, which browsers read as
 * `//evil`, WHATWG URL §4.4 "special authority ignore slashes"), tabs, newlines and other controls
 * or spaces (stripped by browsers, §4.4 step 3, so `/\t/evil` would become `//evil`), and encoded
 * forms of those that a server or browser might undo once (`/%2F%2Fevil`, `/%5Cevil`). Sign-in's own
 * pages are not returned to.
 */
export function safeReturnPath(path: unknown): string | null {
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH) return null;
  if (!/^\/[\x21-\x7e]*$/.test(path) || path.startsWith('//') || path.includes('\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.startsWith('//') || /[\p{Cc}\s\\]/u.test(decoded.split(/[?#]/, 1)[0]!)) return null;
  const resolved = new URL(path, probe);
  if (resolved.origin !== probe.origin) return null;
  if (/^\/(signin|signout)(\/|$)/.test(resolved.pathname)) return null;
  return resolved.pathname + resolved.search + resolved.hash;
}

function secureOf(site: AppContext | boolean): boolean {
  return typeof site === 'boolean' ? site : site.config.baseUrl.startsWith('https:');
}

/** Remembers `path` (when it is safe) as where sign-in returns to; `site` says whether cookies are Secure. */
export function setReturnTo(site: AppContext | boolean, reply: FastifyReply, path: string): void {
  const safe = safeReturnPath(path);
  if (!safe) return;
  reply.setCookie(RETURN_COOKIE, safe, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureOf(site), maxAge: RETURN_TTL_SECONDS });
}

/** The path to go back to after sign-in, if a page left one; the cookie is cleared either way. */
export function takeReturnTo(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string | null {
  const path = request.cookies[RETURN_COOKIE];
  if (path === undefined) return null;
  reply.setCookie(RETURN_COOKIE, '', { path: '/', httpOnly: true, sameSite: 'lax', secure: secureOf(ctx), maxAge: 0, expires: new Date(0) });
  return safeReturnPath(path);
}
