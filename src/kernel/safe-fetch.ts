// An HTTP client for URLs that people and agents give us (OAuth client ID metadata documents,
// webhook endpoints): it must never be steered at the service's own network. The guard follows
// OWASP's SSRF prevention advice: https only, the host resolved here and every address checked,
// and the connection made to the very address that was checked (the resolver is handed to the
// socket as its `lookup`, so a second DNS answer cannot slip in between check and connect —
// no rebinding gap). Redirects are followed by hand, each target checked again, a bounded
// number of times; the whole exchange has one deadline and the body a size cap.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { classifyAddress } from './address-class.ts';

export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'address_not_allowed'
  | 'dns_failed'
  | 'connection_failed'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects';

export class SafeFetchError extends Error {
  readonly code: SafeFetchErrorCode;
  constructor(code: SafeFetchErrorCode, message: string) {
    super(message);
    this.name = 'SafeFetchError';
    this.code = code;
  }
}

export type SafeFetchOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Largest body accepted, in bytes; a larger one fails with `too_large`. */
  maxBytes: number;
  /** One deadline for the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Redirects followed at most; 0 means a redirect is an error. */
  maxRedirects: number;
  /**
   * Development and tests only (the caller decides from its config): allows http and loopback
   * addresses, so local servers can stand in for remote ones. Private ranges stay refused.
   */
  allowLoopback?: boolean;
};

export type SafeFetchResponse = { status: number; headers: Headers; body: string; url: string };

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Whether an address may be connected to: only a global one (kernel/address-class.ts: every IPv6
 * form carrying an IPv4 address is judged by what it carries; private, shared, loopback,
 * link-local incl. 169.254.169.254, documentation, benchmarking, multicast, reserved and every
 * other special-purpose block of the IANA registries is refused), or with `allowLoopback` a
 * loopback one.
 */
export function isAddressAllowed(address: string, allowLoopback = false): boolean {
  const kind = classifyAddress(address);
  return kind === 'global' || (allowLoopback && kind === 'loopback');
}

/** A resolver that answers only with addresses that passed the check, or fails. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses) => {
      if (err) return callback(new SafeFetchError('dns_failed', `The host ${hostname} could not be resolved.`), '', 4);
      // Every address must pass, not just one: otherwise a name listing a public and a private
      // address could be connected to the private one by the connection's own family choice.
      const refused = addresses.find((a) => !isAddressAllowed(a.address, allowLoopback));
      if (refused || addresses.length === 0) {
        return callback(new SafeFetchError('address_not_allowed', `The host ${hostname} resolves to an address that may not be fetched.`), '', 4);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}

/** Parses and checks a URL before any connection: scheme, credentials, literal addresses. */
function checkUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('invalid_url', 'The URL is not a valid absolute URL.');
  }
  const schemeOk = url.protocol === 'https:' || (allowLoopback && url.protocol === 'http:');
  if (!schemeOk) throw new SafeFetchError('scheme_not_allowed', 'Only https URLs may be fetched.');
  if (url.username || url.password) throw new SafeFetchError('invalid_url', 'The URL may not carry a user name or password.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address never reaches the resolver (net.connect skips lookup for one), so it is
  // checked here.
  if (ipaddr.isValid(host) && !isAddressAllowed(host, allowLoopback)) {
    throw new SafeFetchError('address_not_allowed', 'The URL points at an address that may not be fetched.');
  }
  return url;
}

type Hop = { status: number; headers: Headers; location: string | null; body: string };

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function requestOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  opts: SafeFetchOptions,
  signal: AbortSignal,
): Promise<Hop> {
  const allowLoopback = opts.allowLoopback === true;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allowLoopback),
        // A fresh connection every time: a pooled socket would skip the lookup and its check.
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = redirectStatuses.has(status) ? (res.headers.location ?? null) : null;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          res.destroy();
          return reject(new SafeFetchError('too_large', `The response is larger than ${opts.maxBytes} bytes.`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new SafeFetchError('too_large', `The response is larger than ${opts.maxBytes} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, headers: toHeaders(res.headers), location, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => reject(err));
        // Cut off mid-body (the deadline, the peer): whatever came is not the answer.
        res.on('close', () => {
          if (!res.complete) reject(new Error('The connection closed before the whole answer came.'));
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function translate(err: unknown, signal: AbortSignal, timeoutMs: number): SafeFetchError {
  if (err instanceof SafeFetchError) return err;
  if (signal.aborted) return new SafeFetchError('timeout', `No complete answer within ${timeoutMs} ms.`);
  const message = err instanceof Error ? err.message : String(err);
  return new SafeFetchError('connection_failed', `The request failed: ${message}`);
}

export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const allowLoopback = opts.allowLoopback === true;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = checkUrl(raw, allowLoopback);
  let method = (opts.method ?? 'GET').toUpperCase();
  let headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body = opts.body;
  for (let redirects = 0; ; redirects++) {
    let hop: Hop;
    try {
      hop = await requestOnce(url, method, headers, body, opts, signal);
    } catch (err) {
      throw translate(err, signal, opts.timeoutMs);
    }
    if (hop.location === null) return { status: hop.status, headers: hop.headers, body: hop.body, url: url.toString() };
    if (redirects >= opts.maxRedirects) throw new SafeFetchError('too_many_redirects', `More than ${opts.maxRedirects} redirects.`);
    const next = checkUrl(new URL(hop.location, url).toString(), allowLoopback);
    // RFC 9110 §15.4: 303 turns any method into GET, and 301/302 do so for POST by long practice;
    // 307 and 308 keep the method and body.
    if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
    }
    // Credentials meant for one origin are not handed to another.
    if (next.origin !== url.origin) {
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !['authorization', 'cookie'].includes(k.toLowerCase())));
    }
    url = next;
  }
}

/**
 * Checks a URL as safeFetch would before connecting — scheme, credentials, and every address its
 * host resolves to — without sending anything: for refusing a URL when it is saved (a webhook
 * endpoint). Delivery checks again on every attempt, since DNS answers change.
 */
export async function checkFetchTarget(raw: string, options: { allowLoopback?: boolean } = {}): Promise<URL> {
  const allowLoopback = options.allowLoopback === true;
  const url = checkUrl(raw, allowLoopback);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return url;
  await new Promise<void>((resolve, reject) => {
    guardedLookup(allowLoopback)(host, { all: true }, (err) => (err ? reject(err) : resolve()));
  });
  return url;
}
