// The rate-limit headers on every authenticated response (spec "Headers on every response" and
// the IETF RateLimit fields draft as decisions.md fixes them). 429 errors carry the same headers,
// so the header record is built by one pure function that both paths use.
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

export function limitHeaders(s: LimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(s.day.limit),
    'RateLimit-Remaining': String(s.day.remaining),
    'RateLimit-Reset': String(s.day.reset),
    'X-AI-Calls-Limit': String(s.ai.limit),
    'X-AI-Calls-Remaining': String(s.ai.remaining),
    'RateLimit-Policy': `"minute";q=${s.minute.limit};w=60, "day";q=${s.day.limit};w=86400, "ai";q=${s.ai.limit};w=86400`,
    RateLimit: `"minute";r=${s.minute.remaining};t=${s.minute.reset}, "day";r=${s.day.remaining};t=${s.day.reset}, "ai";r=${s.ai.remaining};t=${s.ai.reset}`,
  };
}

export function setLimitHeaders(reply: FastifyReply, s: LimitState): void {
  reply.headers(limitHeaders(s));
}
