// Where the counters live: PostgreSQL (the embedded PGlite or a server) by default, Redis when
// REDIS_URL is set. Both count in all of a request's windows or in none, in one atomic step.
import type { WindowSlot } from './policy.ts';

export interface ConsumeResult {
  /** Index in the slots of the window that refused, or -1 when the amount was counted. */
  refused: number;
  /** Each slot's count after the call (a refusal leaves every count as it was). */
  counts: number[];
}

export interface CounterStore {
  /**
   * Counts `amount` (a request, or a block of requests reserved at once) in every counted
   * window, or in none: a window refuses when its count + amount would pass its limit.
   */
  consume(owner: string, slots: readonly WindowSlot[], now: Date, amount?: number): Promise<ConsumeResult>;
  /**
   * Gives back `amounts[i]` units of slot i (the unused part of a block): never below 0, and a
   * counter already deleted (its bucket ended) is left alone.
   */
  release(owner: string, slots: readonly WindowSlot[], amounts: readonly number[]): Promise<void>;
  read(owner: string, slots: readonly WindowSlot[]): Promise<number[]>;
  close(): Promise<void>;
}
