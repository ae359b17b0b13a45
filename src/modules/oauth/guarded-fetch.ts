// Fetching a document a client names (a client ID metadata document) without letting the URL
// reach inside the network (OWASP SSRF prevention): every address the host name resolves to must
// be a public unicast address, checked when the connection is made (so DNS cannot answer one
// address to the check and another to the connection); a size limit, one deadline for the whole
// fetch and a bounded number of redirects, each checked like the first request.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DocumentFetch, FetchedDocument } from './metadata-document.ts';

/** ipaddr.js's name for an address's range: 'unicast' for public ones, else private, loopback, linkLocal, … */
function rangeOf(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}

/** Public unicast addresses; loopback too when allowed (development), never private or link-local ones. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const range = rangeOf(address);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

class Refused extends Error {}

/** A DNS lookup that answers only allowed addresses, checked as the connection is made. */
function checkedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, allowLoopback));
      if (refused || addresses.length === 0) return callback(new Refused(`${hostname} resolves to an address that is not public (${refused?.address ?? 'none'})`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function once(url: URL, options: Parameters<DocumentFetch>[1], signal: AbortSignal): Promise<FetchedDocument & { location?: string }> {
  // An address written in the URL is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(literal) && !isAllowedAddress(literal, options.allowLoopback)) {
    return Promise.reject(new Refused(`${literal} is not a public address`));
  }
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers: options.headers, lookup: checkedLookup(options.allowLoopback), signal, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      if (status >= 300 && status < 400 && headers.location) {
        res.resume();
        return resolve({ status, headers, body: Buffer.alloc(0), location: headers.location });
      }
      const declared = Number(headers['content-length']);
      if (declared > options.maxBytes) {
        res.destroy();
        return reject(new Refused(`the document is larger than ${options.maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          reject(new Refused(`the document is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The fetcher of client metadata documents (metadata-document.ts states the limits). */
export const guardedFetch: DocumentFetch = async (start, options) => {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:')) throw new Refused('only https URLs are fetched');
    let res: Awaited<ReturnType<typeof once>>;
    try {
      res = await once(url, options, signal);
    } catch (err) {
      if (signal.aborted) throw new Refused(`no answer within ${options.timeoutMs / 1000} seconds`);
      throw err instanceof Refused ? err : new Refused('the connection failed');
    }
    if (!res.location) return res;
    if (hop >= options.maxRedirects) throw new Refused(`more than ${options.maxRedirects} redirects`);
    url = new URL(res.location, url);
  }
};
