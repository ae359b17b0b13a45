// Answers of `cached` routes (public record reads), kept in memory as the exact bytes sent, by
// representation and URL: the JSON of an API route, and (for the web pages) the HTML, Markdown or
// Atom of the same URL are kept apart, so one format is never served for another.
// The public-data channel of kernel/coherence.ts says when they may be stale: any change to the
// public record at any instance (ingest, the sample load, an operator's SQL) moves its generation
// and drops every answer here, as does losing the database listener. An answer is stored only if
// the generation did not move while it was being made. Least recently used answers make room
// past MAX_BYTES. The guard (credential, scopes, limits) runs before the cache on every request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CacheChannel, CoherentMap } from '../../kernel/coherence.ts';

/** Memory the answers may take, in characters of JSON (about bytes: the record is mostly ASCII). */
export const MAX_BYTES = 64 * 1024 * 1024;
/** Larger answers (long list pages) are not kept; one must not push out thousands of small ones. */
const MAX_ENTRY_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The public-data generation when a cached route began making its answer. */
    cacheGeneration?: number;
    /** The representation the answer being made is kept as. */
    cacheRepresentation?: Representation;
  }
}

/** The formats an answer is kept in; each has its own entries. */
export type Representation = 'json' | 'html' | 'markdown' | 'atom' | 'xml';

interface Kept {
  body: string;
  type: string;
}

const keyOf = (representation: Representation, url: string) => `${representation} ${url}`;

export interface ResponseCache {
  /** Sends the kept answer in this representation for this request's URL and returns true, or returns false. */
  send(request: FastifyRequest, reply: FastifyReply, representation: Representation): boolean;
  /** Before making an answer: remembers the generation it is made from and its representation. */
  begin(request: FastifyRequest, representation: Representation): void;
  /** The onSend hook of a cached route: keeps a 200 answer made while nothing changed. */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

export function createResponseCache(channel: CacheChannel, maxBytes = MAX_BYTES): ResponseCache {
  let bytes = 0;
  const answers = new CoherentMap<Kept>(channel, () => {
    bytes = 0;
  });

  function keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return;
    const made = request.cacheGeneration;
    const representation = request.cacheRepresentation;
    if (made === undefined || representation === undefined || !answers.mayKeep(made)) return;
    // A string is sent as it is (Fastify serializes only objects), with the headers in one write.
    const kept = answers.entries;
    const key = keyOf(representation, request.url);
    if (payload.length > MAX_ENTRY_BYTES || kept.has(key)) return;
    while (bytes + payload.length > maxBytes && kept.size > 0) {
      const [oldest, old] = kept.entries().next().value!;
      kept.delete(oldest);
      bytes -= old.body.length;
    }
    kept.set(key, { body: payload, type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8') });
    bytes += payload.length;
  }

  return {
    send(request, reply, representation) {
      if (request.method !== 'GET') return false;
      const key = keyOf(representation, request.url);
      const found = answers.get(key);
      if (!found) return false;
      // Most recently used goes last; eviction takes from the front.
      answers.entries.delete(key);
      answers.entries.set(key, found);
      reply.status(200).type(found.type).send(found.body);
      return true;
    },
    begin(request, representation) {
      request.cacheGeneration = answers.mark();
      request.cacheRepresentation = representation;
    },
    async onSend(request, reply, payload) {
      keep(request, reply, payload);
      return payload;
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
