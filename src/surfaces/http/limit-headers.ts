// The rate-limit headers on every authenticated response (spec "Headers on every response" and
// the IETF RateLimit fields draft as decisions.md fixes them).
import type { FastifyReply } from 'fastify';

export interface Window {
  limit: number;
  remaining: number;
  /** Seconds until this window resets. */
  reset: number;
}

export interface LimitState {
  day: Window;
  minute: Window;
  ai: Window;
}

export function setLimitHeaders(reply: FastifyReply, s: LimitState): void {
  reply.header('RateLimit-Limit', String(s.day.limit));
  reply.header('RateLimit-Remaining', String(s.day.remaining));
  reply.header('RateLimit-Reset', String(s.day.reset));
  reply.header('X-AI-Calls-Limit', String(s.ai.limit));
  reply.header('X-AI-Calls-Remaining', String(s.ai.remaining));
  reply.header(
    'RateLimit-Policy',
    `"minute";q=${s.minute.limit};w=60, "day";q=${s.day.limit};w=86400, "ai";q=${s.ai.limit};w=86400`,
  );
  reply.header(
    'RateLimit',
    `"minute";r=${s.minute.remaining};t=${s.minute.reset}, "day";r=${s.day.remaining};t=${s.day.reset}, "ai";r=${s.ai.remaining};t=${s.ai.reset}`,
  );
}
