// Secret values of the sign-in flow: sign-in link tokens, session tokens and the CSRF token
// derived from a session. Only SHA-256 hashes of link and session tokens are stored.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits) behind a prefix that says what the value is when it turns up. */
export function newToken(prefix: 'ctl_' | 'cts_'): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Rough shape check so junk never reaches the database. */
export function looksLikeToken(value: unknown, prefix: 'ctl_' | 'cts_'): value is string {
  return typeof value === 'string' && value.length === prefix.length + 43 && value.startsWith(prefix) && /^[A-Za-z0-9_-]+$/.test(value.slice(4));
}

/**
 * The session's CSRF token (synchronizer pattern, OWASP CSRF cheat sheet): an HMAC keyed by the
 * session token. Only the holder of the HttpOnly session cookie can know it, it needs no storage,
 * and it dies with the session.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('council-tracker csrf v1').digest('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `token` is the CSRF token of the session whose cookie value is `sessionCookie`. */
export function verifyCsrf(sessionCookie: string | null | undefined, token: string | null | undefined): boolean {
  if (!looksLikeToken(sessionCookie, 'cts_') || typeof token !== 'string' || token.length === 0) return false;
  return sameSecret(csrfTokenFor(sessionCookie), token);
}
