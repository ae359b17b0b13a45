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

/** The fields that depend on the limits alone, kept for the last limits seen: an owner's are the same request after request. */
interface Fixed {
  minute: number;
  day: number;
  ai: number;
  dayLimit: string;
  aiLimit: string;
  policy: string;
}
let lastFixed: Fixed = fixedOf({ day: { limit: 0 }, minute: { limit: 0 }, ai: { limit: 0 } });

function fixedOf(s: { day: { limit: number }; minute: { limit: number }; ai: { limit: number } }): Fixed {
  return {
    minute: s.minute.limit,
    day: s.day.limit,
    ai: s.ai.limit,
    dayLimit: String(s.day.limit),
    aiLimit: String(s.ai.limit),
    policy: `"minute";q=${s.minute.limit};w=60, "day";q=${s.day.limit};w=86400, "ai";q=${s.ai.limit};w=86400`,
  };
}

function fixed(s: LimitState): Fixed {
  const f = lastFixed;
  if (f.minute === s.minute.limit && f.day === s.day.limit && f.ai === s.ai.limit) return f;
  lastFixed = fixedOf(s);
  return lastFixed;
}

const current = (s: LimitState) =>
  `"minute";r=${s.minute.remaining};t=${s.minute.reset}, "day";r=${s.day.remaining};t=${s.day.reset}, "ai";r=${s.ai.remaining};t=${s.ai.reset}`;

export function limitHeaders(s: LimitState): Record<string, string> {
  const f = fixed(s);
  return {
    'RateLimit-Limit': f.dayLimit,
    'RateLimit-Remaining': String(s.day.remaining),
    'RateLimit-Reset': String(s.day.reset),
    'X-AI-Calls-Limit': f.aiLimit,
    'X-AI-Calls-Remaining': String(s.ai.remaining),
    'RateLimit-Policy': f.policy,
    RateLimit: current(s),
  };
}

/**
 * The same fields set on a reply one by one, under the lower-case names Fastify keeps them by (it
 * lower-cases every name it is given): no record and no renamed copy per request (issue 23).
 */
export function setLimitHeaders(reply: FastifyReply, s: LimitState): void {
  const f = fixed(s);
  reply
    .header('ratelimit-limit', f.dayLimit)
    .header('ratelimit-remaining', String(s.day.remaining))
    .header('ratelimit-reset', String(s.day.reset))
    .header('x-ai-calls-limit', f.aiLimit)
    .header('x-ai-calls-remaining', String(s.ai.remaining))
    .header('ratelimit-policy', f.policy)
    .header('ratelimit', current(s));
}
