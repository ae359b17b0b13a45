// Time comes from one place so tests can move it (limits across midnight UTC, expiries).

export interface Clock {
  now(): Date;
  /** The same instant in milliseconds since the epoch, with no Date made (the hot paths' reads). */
  ms(): number;
}

export const systemClock: Clock = { now: () => new Date(), ms: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = new Date()) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  ms(): number {
    return this.#ms;
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/** Seconds from `now` to the next midnight UTC (the daily limit's reset). */
export function secondsToMidnightUtc(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
