// Answers of `cached` routes (public record reads), kept in memory as the exact JSON sent, by URL.
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
  }
}

export interface ResponseCache {
  /** Sends the kept answer for this request's URL and returns true, or returns false. */
  send(request: FastifyRequest, reply: FastifyReply): boolean;
  /** Before making an answer: remembers the generation it is made from. */
  begin(request: FastifyRequest): void;
  /** The onSend hook of a cached route: keeps a 200 answer made while nothing changed. */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

export function createResponseCache(channel: CacheChannel, maxBytes = MAX_BYTES): ResponseCache {
  let bytes = 0;
  const answers = new CoherentMap<string>(channel, () => {
    bytes = 0;
  });

  function keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return;
    const made = request.cacheGeneration;
    if (made === undefined || !answers.mayKeep(made)) return;
    // A string is sent as it is (Fastify serializes only objects), with the headers in one write.
    const kept = answers.entries;
    if (payload.length > MAX_ENTRY_BYTES || kept.has(request.url)) return;
    while (bytes + payload.length > maxBytes && kept.size > 0) {
      const [oldest, old] = kept.entries().next().value!;
      kept.delete(oldest);
      bytes -= old.length;
    }
    kept.set(request.url, payload);
    bytes += payload.length;
  }

  return {
    send(request, reply) {
      if (request.method !== 'GET') return false;
      const body = answers.get(request.url);
      if (!body) return false;
      // Most recently used goes last; eviction takes from the front.
      answers.entries.delete(request.url);
      answers.entries.set(request.url, body);
      reply.status(200).type('application/json; charset=utf-8').send(body);
      return true;
    },
    begin(request) {
      request.cacheGeneration = answers.mark();
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
