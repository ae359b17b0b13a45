// Pure rules of the limits (spec "Limits", decisions.md "Envelopes and limits"): which windows a
// request class counts in, where each window's bucket starts and ends, and how a refusal reads.
import type { Actor } from '../../../kernel/actor.ts';
import { secondsToMidnightUtc, utcDate } from '../../../kernel/clock.ts';
import { AppError } from '../../../kernel/errors.ts';
import type { LimitClass } from '../../../kernel/access.ts';
import { type LimitState, limitHeaders } from '../../../kernel/limit-state.ts';

export type WindowName = 'day' | 'ai' | 'minute';

/**
 * The order windows are checked and locked in, the same for every request class: a store
 * that locks rows one by one never deadlocks, and when several windows are used up the
 * daily one is reported (its long Retry-After is the useful one; waiting a minute would not help).
 */
export const windowOrder: readonly WindowName[] = ['day', 'ai', 'minute'];

/** Windows a request of each class counts in. GET /me counts only toward the minute. */
const counted: Record<LimitClass, readonly WindowName[]> = {
  data: ['day', 'minute'],
  ai: ['day', 'ai', 'minute'],
  answer: ['ai'],
  me: ['minute'],
  none: [],
};

export interface WindowSlot {
  window: WindowName;
  /** Identifies the owner, window and bucket, e.g. `day:2025-01-31` (the owner goes in front). */
  bucket: string;
  limit: number;
  counted: boolean;
  /** When the bucket ends; its counter is useless afterwards. */
  endsAt: Date;
  /** Seconds until the bucket ends (at least 1), as Retry-After and the RateLimit `t` show it. */
  reset: number;
}

/** The owner part of a counter key: `account:<id>` or `team:<id>`. */
export function ownerTag(actor: Actor): string {
  return `${actor.limitsOwner.type}:${actor.limitsOwner.id}`;
}

export function nextMidnightUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * The three windows at `now`, in `windowOrder`. Daily buckets are UTC dates; minute buckets are
 * fixed 60-second buckets of the epoch (not sliding): one counter per minute keeps the check to
 * one row, and the reset a client sees is exact. Within one whole second of the clock every
 * figure here is the same (buckets and resets end on whole seconds), so the slots of an actor
 * (the same object for every request of a key) are kept for the second.
 */
export function windowSlots(actor: Actor, limitClass: LimitClass, now: Date): readonly WindowSlot[] {
  const second = Math.floor(now.getTime() / 1000);
  const kept = slotsOfSecond.get(actor)?.[limitClass];
  if (kept && kept.second === second) return kept.slots;
  const slots = computeSlots(actor, limitClass, now);
  let perClass = slotsOfSecond.get(actor);
  if (!perClass) {
    perClass = {};
    slotsOfSecond.set(actor, perClass);
  }
  perClass[limitClass] = { second, slots };
  return slots;
}

const slotsOfSecond = new WeakMap<Actor, Partial<Record<LimitClass, { second: number; slots: readonly WindowSlot[] }>>>();

function computeSlots(actor: Actor, limitClass: LimitClass, now: Date): readonly WindowSlot[] {
  const day = utcDate(now);
  const midnight = nextMidnightUtc(now);
  const toMidnight = secondsToMidnightUtc(now);
  const minute = Math.floor(now.getTime() / 60_000);
  const minuteEnd = new Date((minute + 1) * 60_000);
  const toMinuteEnd = Math.max(1, Math.ceil((minuteEnd.getTime() - now.getTime()) / 1000));
  const counts = counted[limitClass];
  const limits = { day: actor.limits.requestsPerDay, ai: actor.limits.aiAnswersPerDay, minute: actor.limits.requestsPerMinute };
  return Object.freeze(
    windowOrder.map((window) =>
      Object.freeze({
        window,
        bucket: window === 'minute' ? `minute:${minute}` : `${window}:${day}`,
        limit: limits[window],
        counted: counts.includes(window),
        endsAt: window === 'minute' ? minuteEnd : midnight,
        reset: window === 'minute' ? toMinuteEnd : toMidnight,
      }),
    ),
  );
}

/** Header state from the counts (in `windowOrder`) a store returned. */
export function limitState(slots: readonly WindowSlot[], counts: readonly number[]): LimitState {
  const w = (i: number) => {
    const slot = slots[i]!;
    return { limit: slot.limit, remaining: Math.max(0, slot.limit - (counts[i] ?? 0)), reset: slot.reset };
  };
  return { day: w(0), ai: w(1), minute: w(2) };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The 429 for the refused window, with Retry-After and the RateLimit headers of the moment. */
export function refusal(window: WindowName, state: LimitState, now: Date): AppError {
  const headers = limitHeaders(state);
  const midnight = nextMidnightUtc(now).toISOString().replace('.000Z', 'Z');
  if (window === 'minute') {
    const wait = state.minute.reset;
    return new AppError(
      'rate_limited',
      `Rate limit reached: ${plural(state.minute.limit, 'request', 'requests')} a minute. Try again in ${plural(wait, 'second', 'seconds')}.`,
      { ...headers, 'Retry-After': String(wait) },
    );
  }
  if (window === 'day') {
    const wait = state.day.reset;
    return new AppError(
      'daily_limit',
      `Daily limit reached: ${plural(state.day.limit, 'request', 'requests')} a day. It resets at midnight UTC (${midnight}), in ${plural(wait, 'second', 'seconds')}.`,
      { ...headers, 'Retry-After': String(wait) },
    );
  }
  const wait = state.ai.reset;
  return new AppError(
    'ai_daily_limit',
    `Daily AI answer limit reached: ${plural(state.ai.limit, 'answer', 'answers')} a day. It resets at midnight UTC (${midnight}), in ${plural(wait, 'second', 'seconds')}; data and search requests keep working.`,
    { ...headers, 'Retry-After': String(wait) },
  );
}
