// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document §3–§4): a client_id
// that is an https URL names a JSON document the server fetches. The fetch goes through the
// SSRF-guarded kernel/safe-fetch.ts (no private, loopback or link-local address after DNS
// resolution, a size and a time limit, a bounded number of redirects, each checked again); the
// document's cache headers say how long it may be used before it is fetched again.
import type { safeFetch } from '../../../kernel/safe-fetch.ts';
import { oauthError } from './errors.ts';

/** The fetcher (safeFetch; a test may hand in another of the same shape). */
export type DocumentFetch = typeof safeFetch;

/** The draft (§4.1) suggests 5 KB as a limit; a client with ten long redirect URIs still fits. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_REDIRECTS = 3;
/** How long a document is used when its headers say nothing, and at most whatever they say. */
const DEFAULT_FRESH_SECONDS = 300;
const MAX_FRESH_SECONDS = 24 * 3600;

/**
 * §3: an https URL with a path, no fragment, no credentials, no dot segments. Plain http only with
 * OUTBOUND_ALLOW_LOOPBACK, the one setting of every fetch of a URL someone gave (local stand-ins
 * in development and tests).
 */
export function checkClientIdUrl(value: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw oauthError('invalid_client', 'The client_id URL is not valid.');
  }
  const scheme = url.protocol === 'https:' || (allowLoopback && url.protocol === 'http:');
  if (!scheme) throw oauthError('invalid_client', 'A client_id URL must use https.');
  if (url.username || url.password || value.includes('#')) throw oauthError('invalid_client', 'A client_id URL must not carry credentials or a fragment.');
  if (url.pathname === '/' || /\/\.\.?(\/|$)/.test(value.replace(/^https?:\/\/[^/]+/, ''))) {
    throw oauthError('invalid_client', 'A client_id URL must have a path, without "." or ".." segments.');
  }
  if (url.href !== value) throw oauthError('invalid_client', 'A client_id URL must be written in its normal form.');
  return url;
}

/** RFC 9111 §5.2.2: no-store / no-cache mean fetch again every time; max-age, else Expires, else the default. */
export function freshSeconds(headers: Headers, now: Date): number {
  const cc = (headers.get('cache-control') ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(cc)) return 0;
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)"?/.exec(cc);
  if (maxAge) return Math.min(Number(maxAge[1]), MAX_FRESH_SECONDS);
  const expiresHeader = headers.get('expires');
  const expires = expiresHeader ? Date.parse(expiresHeader) : Number.NaN;
  if (!Number.isNaN(expires)) return Math.max(0, Math.min((expires - now.getTime()) / 1000, MAX_FRESH_SECONDS));
  return DEFAULT_FRESH_SECONDS;
}

/**
 * Whatever went wrong on the way — a refused or unresolvable address, no connection, a timeout, a
 * status other than 200, a body too large or not a JSON object — the caller learns only this: a
 * stranger names the URL, and telling these apart would map which hosts and ports answer.
 */
const unfetchable = () => oauthError('invalid_client', 'The client metadata document could not be fetched.');

export async function readMetadataDocument(
  clientId: string,
  fetchDocument: DocumentFetch,
  options: { allowLoopback: boolean; now: Date },
): Promise<{ metadata: Record<string, unknown>; freshUntil: Date }> {
  checkClientIdUrl(clientId, options.allowLoopback);
  let res: Awaited<ReturnType<DocumentFetch>>;
  try {
    res = await fetchDocument(clientId, {
      maxBytes: MAX_DOCUMENT_BYTES,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      allowLoopback: options.allowLoopback,
      headers: { accept: 'application/json' },
    });
  } catch {
    throw unfetchable();
  }
  if (res.status !== 200) throw unfetchable();
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch {
    throw unfetchable();
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw unfetchable();
  const metadata = doc as Record<string, unknown>;
  // §4.1: the document names itself; one that names another URL describes another client.
  if (metadata.client_id !== clientId) throw oauthError('invalid_client', "The client metadata document's client_id is not the URL it was fetched from.");
  // §4.1: a document is public, so it cannot hold a secret.
  if ('client_secret' in metadata || 'client_secret_expires_at' in metadata)
    throw oauthError('invalid_client', 'A client metadata document must not contain a client secret.');
  const seconds = freshSeconds(res.headers, options.now);
  return { metadata, freshUntil: new Date(options.now.getTime() + seconds * 1000) };
}
