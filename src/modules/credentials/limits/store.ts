// Where the counters live: PostgreSQL (the embedded PGlite or a server) by default, Redis when
// REDIS_URL is set. Both count in all of a request's windows or in none, in one atomic step.
import type { WindowSlot } from './policy.ts';

export interface ConsumeResult {
  /** Index in the slots of the window that refused, or -1 when the request was counted. */
  refused: number;
  /** Each slot's count after the call (a refused request leaves every count as it was). */
  counts: number[];
}

export interface CounterStore {
  consume(owner: string, slots: readonly WindowSlot[], now: Date): Promise<ConsumeResult>;
  read(owner: string, slots: readonly WindowSlot[]): Promise<number[]>;
  close(): Promise<void>;
}
