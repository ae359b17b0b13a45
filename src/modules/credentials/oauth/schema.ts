// The values of OAuth requests, checked: scopes (RFC 6749 §3.3), redirect URIs (RFC 6749 §3.1.2,
// RFC 8252 §7 for native clients), resources (RFC 8707 §2) and PKCE values (RFC 7636 §4).
import { isScope, legacyScopes, type Scope } from '../../../kernel/access.ts';
import { oauthError } from './errors.ts';
import type { ResourceName } from './tables.ts';

/** RFC 6749 §3.3: space-delimited. None, or `api`, means public.read public.ai (spec "OAuth details"). */
export function parseScopeParam(raw: unknown): Scope[] {
  if (raw !== undefined && typeof raw !== 'string') throw oauthError('invalid_scope', 'scope must be one space-separated string.');
  const words = (raw ?? '').split(' ').filter(Boolean);
  if (words.length === 0) return [...legacyScopes];
  const out = new Set<Scope>();
  for (const w of words) {
    if (w === 'api') for (const s of legacyScopes) out.add(s);
    else if (isScope(w)) out.add(w);
    else throw oauthError('invalid_scope', `Unknown scope "${w.slice(0, 100)}".`);
  }
  return [...out];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI a client may register: an absolute URI without a fragment (RFC 6749 §3.1.2);
 * https, or http on a loopback host for native clients (RFC 8252 §7.3, as the MCP authorization
 * spec describes), or a private-use scheme in reverse-domain form (RFC 8252 §7.1).
 */
export function checkRedirectUri(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000)
    throw oauthError('invalid_redirect_uri', 'Each redirect URI must be a URL of at most 2,000 characters.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw oauthError('invalid_redirect_uri', `"${value.slice(0, 200)}" is not an absolute URL.`);
  }
  if (value.includes('#')) throw oauthError('invalid_redirect_uri', 'A redirect URI must not have a fragment (RFC 6749 §3.1.2).');
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return value;
    throw oauthError('invalid_redirect_uri', 'An http redirect URI must be on a loopback host (localhost, 127.0.0.1 or [::1]); use https otherwise.');
  }
  // RFC 8252 §7.1: private-use schemes are reverse domain names (com.example.app).
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) return value;
  throw oauthError(
    'invalid_redirect_uri',
    `Redirect URIs must use https, http on a loopback host, or a reverse-domain scheme; "${url.protocol}" is not accepted.`,
  );
}

/** RFC 8707 §2: `resource` is the exact URL of one surface (from its protected resource metadata), or the service's own URL for all three. */
export function parseResource(raw: unknown, baseUrl: string): ResourceName | null {
  if (raw === undefined || raw === '') return null;
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length !== 1 || typeof values[0] !== 'string') throw oauthError('invalid_target', 'Ask for at most one resource.');
  const value = values[0];
  if (value === baseUrl) return null;
  for (const name of ['api', 'mcp', 'a2a'] as const) if (value === `${baseUrl}/${name}`) return name;
  throw oauthError('invalid_target', `Unknown resource "${value.slice(0, 200)}": use ${baseUrl}/api, ${baseUrl}/mcp or ${baseUrl}/a2a.`);
}

/** RFC 7636 §4.1/§4.2: 43–128 characters of [A-Za-z0-9-._~]. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export function isPkceValue(value: unknown): value is string {
  return typeof value === 'string' && PKCE_VALUE.test(value);
}

/** A single text parameter: repeated parameters are refused (RFC 6749 §3.1, §3.2). */
export function single(params: Record<string, unknown>, name: string): string | undefined {
  const v = Object.hasOwn(params, name) ? params[name] : undefined;
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw oauthError('invalid_request', `The parameter ${name} must be sent once.`);
  return v;
}
