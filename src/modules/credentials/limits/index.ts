// Request and AI-answer limits per owner (the account, or the team for team credentials), with
// counters shared by every instance: PostgreSQL by default, Redis when REDIS_URL is set. Data
// requests of an owner busy on this instance are counted in blocks (blocks.ts); the rest exactly.
import type { ModuleDeps } from '../../../kernel/deps.ts';
import type { Actor } from '../../../kernel/actor.ts';
import type { LimitClass } from '../../../kernel/access.ts';
import type { LimitState } from '../../../kernel/limit-state.ts';
import { createBlocks } from './blocks.ts';
import { createPgStore } from './pg-store.ts';
import { limitState, nextMidnightUtc, ownerTag, refusal, windowSlots } from './policy.ts';
import { createRedisStore, REDIS_KEY_PREFIX } from './redis-store.ts';
import type { CounterStore } from './store.ts';

export type { WindowName } from './policy.ts';

export interface LimitUsage {
  requestsToday: number;
  aiAnswersToday: number;
  /** The next midnight UTC, ISO 8601. */
  resetsAt: string;
}

export interface Limits {
  /** Counts one request of this class for actor.limitsOwner, or throws AppError 429 (nothing counted). */
  consume(actor: Actor, limitClass: LimitClass): Promise<LimitState>;
  /**
   * Counts one data request without waiting when this instance holds a block of the owner's units
   * (blocks.ts): the limits after it. Undefined otherwise, with nothing counted (call consume).
   * `now`: the moment it counts at (the admission's), the clock's when not given.
   */
  consumeNow(actor: Actor, limitClass: LimitClass, now?: Date): LimitState | undefined;
  /**
   * Gives back one AI answer counted at `countedAt` (its day's bucket, even after midnight): an
   * answer that was not given does not use one up. The request stays counted.
   */
  giveBackAnswer(actor: Actor, countedAt: Date): Promise<LimitState>;
  /** Current state without counting, plus usage for GET /me. */
  peek(actor: Actor): Promise<LimitState & { usage: LimitUsage }>;
  close(): Promise<void>;
}

export interface LimitsOptions {
  /** Redis URL; defaults to config.redisUrl. null keeps the counters in PostgreSQL. */
  redisUrl?: string | null;
  /** Prefix of the Redis keys (default `council:limits:`), so deployments or test runs can share one Redis. */
  redisKeyPrefix?: string;
}

export function createLimits(deps: ModuleDeps, options: LimitsOptions = {}): Limits {
  const redisUrl = options.redisUrl === undefined ? deps.config.redisUrl : options.redisUrl;
  const store: CounterStore = redisUrl
    ? createRedisStore(redisUrl, options.redisKeyPrefix ?? REDIS_KEY_PREFIX)
    : createPgStore(deps.db, deps.log, deps.config.requestDbBudgetMs);
  const blocks = createBlocks(store, deps.clock, deps.log);

  return {
    async consume(actor, limitClass) {
      const now = deps.clock.now();
      const slots = windowSlots(actor, limitClass, now);
      const owner = ownerTag(actor);
      if (limitClass === 'none') return limitState(slots, await blocks.read(owner, slots));
      const { refused, counts } = await (limitClass === 'data' ? blocks.consumeData(owner, slots, now) : blocks.consumeExact(owner, slots, now));
      const state = limitState(slots, counts);
      if (refused >= 0) throw refusal(slots[refused]!.window, state, now);
      return state;
    },
    consumeNow(actor, limitClass, now = deps.clock.now()) {
      if (limitClass !== 'data') return undefined;
      const slots = windowSlots(actor, limitClass, now);
      const counts = blocks.takeData(ownerTag(actor), slots, now);
      return counts && limitState(slots, counts);
    },
    async giveBackAnswer(actor, countedAt) {
      const owner = ownerTag(actor);
      const counted = windowSlots(actor, 'ai', countedAt);
      await blocks.giveBack(
        owner,
        counted,
        counted.map((s) => (s.window === 'ai' ? 1 : 0)),
      );
      const slots = windowSlots(actor, 'none', deps.clock.now());
      return limitState(slots, await blocks.read(owner, slots));
    },
    async peek(actor) {
      const now = deps.clock.now();
      const slots = windowSlots(actor, 'none', now);
      const counts = await blocks.read(ownerTag(actor), slots);
      return {
        ...limitState(slots, counts),
        usage: { requestsToday: counts[0] ?? 0, aiAnswersToday: counts[1] ?? 0, resetsAt: nextMidnightUtc(now).toISOString() },
      };
    },
    async close() {
      await blocks.close();
      await store.close();
    },
  };
}
