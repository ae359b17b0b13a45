// Answers of `cached` routes (public record reads), kept in memory as the exact bytes sent, by
// representation and URL: the JSON of an API route, and (for the web pages) the HTML, Markdown or
// Atom of the same URL are kept apart, so one format is never served for another.
// The public-data channel of kernel/coherence.ts says when they may be stale: any change to the
// public record at any instance (ingest, the sample load, an operator's SQL) moves its generation
// and drops every answer here, as does losing the database listener. An answer is stored only if
// the generation did not move while it was being made. Least recently used answers make room
// past MAX_BYTES (past a sixteenth of it, a new answer is kept at its URL's second request only:
// kernel/coherence.ts `secondSight`), which counts everything an entry holds: its key (the URL, which a caller
// chooses and can make far longer than a small answer), body, kept headers and bookkeeping. The guard (credential, scopes, limits) runs before the cache on every request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ANSWERS_ADMISSION, type CacheChannel, type CacheMark, CoherentMap } from '../../kernel/coherence.ts';

/** Memory the answers may take, in bytes (bodies as sent, UTF-8; URLs and headers as characters). */
export const MAX_BYTES = 64 * 1024 * 1024;
/** What an entry costs besides its strings: the map's slot, the entry object, the strings' headers. */
const ENTRY_OVERHEAD = 160;
/** Larger answers (long list pages) are not kept; one must not push out thousands of small ones. */
const MAX_ENTRY_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The public-data channel's state when a cached route began making its answer. */
    cacheMark?: CacheMark;
    /**
     * Keys of the keyed changes the answer depends on besides the public record (a record's
     * follows, kernel/catalogue.ts `changesWith`): a change of one drops this answer alone.
     */
    cacheDepends?: string[];
    /** The representation the answer being made is kept as. */
    cacheRepresentation?: Representation;
    /** Response headers kept with the answer (a page's validators and cache rules). */
    cacheHeaders?: readonly string[];
  }
}

/** The formats an answer is kept in; each has its own entries. */
export type Representation = 'json' | 'html' | 'markdown' | 'atom' | 'xml';

interface Kept {
  /** The answer as sent: encoded once when kept, so sending it again writes bytes without encoding them. */
  body: Buffer;
  type: string;
  headers?: Record<string, string>;
  /** What it counts against MAX_BYTES (sizeOf). */
  size: number;
}

function sizeOf(key: string, entry: Omit<Kept, 'size'>): number {
  let size = ENTRY_OVERHEAD + key.length + entry.body.byteLength + entry.type.length;
  for (const [name, value] of Object.entries(entry.headers ?? {})) size += ENTRY_OVERHEAD / 4 + name.length + value.length;
  return size;
}

const keyOf = (representation: Representation, url: string) => `${representation} ${url}`;

export interface ResponseCache {
  /** Sends the kept answer in this representation for this request's URL and returns true, or returns false. */
  send(request: FastifyRequest, reply: FastifyReply, representation: Representation): boolean;
  /**
   * Before making an answer: remembers the state it is made from and its representation, which of
   * its response headers to keep with it (sent again with the kept answer), and starts the list of
   * keyed changes it depends on (`request.cacheDepends`, filled by the reads that make it).
   */
  begin(request: FastifyRequest, representation: Representation, headers?: readonly string[]): void;
  /** Bytes the kept answers count against MAX_BYTES now. */
  bytes(): number;
  /** Keeps a 200 answer made while nothing changed (what onSend does, for a caller sending its own). */
  keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void;
  /**
   * The onSend hook of a cached route, keep's: a callback hook, so a kept answer sent again settles
   * no promise on its way out.
   */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void): void;
}

/**
 * A conditional GET whose validators still match the answer: it is answered 304 without the body.
 * If-None-Match is compared weakly (RFC 9110 §13.1.2) and, when present, If-Modified-Since is
 * ignored (§13.1.3); a Last-Modified at or before If-Modified-Since means not modified.
 */
export function notModified(request: FastifyRequest, etag: string | undefined, lastModified: string | undefined | null): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) return etag !== undefined && inm.split(/\s*,\s*/).some((t) => t === '*' || t.replace(/^W\//, '') === etag.replace(/^W\//, ''));
  const ims = request.headers['if-modified-since'];
  if (ims === undefined || !lastModified) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}

export function createResponseCache(channel: CacheChannel, maxBytes = MAX_BYTES): ResponseCache {
  const answers = new CoherentMap<Kept>(channel, {
    max: maxBytes,
    sizeOf: (kept) => kept.size,
    ...ANSWERS_ADMISSION,
  });

  function keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return;
    const made = request.cacheMark;
    const representation = request.cacheRepresentation;
    if (made === undefined || representation === undefined) return;
    // A string is sent as it is (Fastify serializes only objects), with the headers in one write.
    const key = keyOf(representation, request.url);
    // An answer that would not be kept (a URL new to a busy map) is not copied into bytes for nothing.
    if (payload.length > MAX_ENTRY_BYTES || answers.has(key) || answers.refusesUnmade(key)) return;
    const answer: Omit<Kept, 'size'> = {
      body: Buffer.from(payload, 'utf8'),
      type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
    };
    if (request.cacheHeaders) {
      answer.headers = {};
      for (const name of request.cacheHeaders) {
        const value = reply.getHeader(name);
        if (value !== undefined) answer.headers[name] = String(value);
      }
    }
    answers.keep(key, { ...answer, size: sizeOf(key, answer) }, made, request.cacheDepends);
  }

  return {
    bytes: () => answers.size,
    send(request, reply, representation) {
      if (request.method !== 'GET') return false;
      const key = keyOf(representation, request.url);
      // Most recently used goes last (get); eviction takes from the front.
      const found = answers.get(key);
      if (!found) return false;
      if (found.headers) {
        reply.headers(found.headers);
        if (notModified(request, found.headers.etag, found.headers['last-modified'])) {
          reply.status(304).send();
          return true;
        }
      }
      reply.status(200).type(found.type).send(found.body);
      return true;
    },
    begin(request, representation, headers) {
      request.cacheMark = answers.mark();
      request.cacheDepends = [];
      request.cacheRepresentation = representation;
      if (headers) request.cacheHeaders = headers;
    },
    keep,
    onSend(request, reply, payload, done) {
      keep(request, reply, payload);
      done(null, payload);
    },
  };
}

const perChannel = new WeakMap<CacheChannel, ResponseCache>();

/** One cache per public-data channel (that is, per context), shared by v1 and v2. */
export function responseCacheFor(channel: CacheChannel): ResponseCache {
  let cache = perChannel.get(channel);
  if (!cache) {
    cache = createResponseCache(channel);
    perChannel.set(channel, cache);
  }
  return cache;
}
