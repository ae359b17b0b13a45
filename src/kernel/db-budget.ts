// The database time a request may use (issue 17 §1: no caller can make the service slow for
// everyone). Every request runs with a budget (REQUEST_DB_BUDGET_MS, default 2 s): the time during
// which it waits for a connection or runs statements. Before each statement the budget is checked;
// once used up the request is refused 503 `over_budget` with Retry-After instead of waiting on,
// and a waiting turn is given up when it runs out. On PostgreSQL each statement of a request also
// runs under `statement_timeout` of the same length (kernel/db.ts), so the server cancels one
// that would run longer; the embedded database cannot cancel a statement it runs (it shares the
// event loop), so there the check before each statement and fair turns (./db-turns.ts) hold it.
//
// Work that is no request's — jobs, ingest, migrations, the CLI, the sample load, timers — runs in
// the background class: no budget, and on a server a pool of its own with a longer
// statement_timeout. A request is known by its budget, set by the HTTP surfaces' first hook
// (app.ts); whatever runs without one is background work (`inBackground` says so explicitly where
// work could otherwise inherit a request's). The budget travels with the request through
// AsyncLocalStorage, so no module passes it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestUnit } from './db-unit.ts';
import { overBudget } from './errors.ts';

/** What REQUEST_DB_BUDGET_MS defaults to. */
export const DEFAULT_REQUEST_DB_BUDGET_MS = 2000;

export class DbBudget {
  readonly limitMs: number;
  /**
   * Whose turn this is when turns are shared (./db-turns.ts): the client address until the
   * request's credential is known, then its limits owner (kernel/perform.ts), so one caller's
   * parallel requests share one turn among others'.
   */
  caller: string;
  #spent = 0;
  #active = 0;
  #since = 0;
  #wrote = false;
  /** The request's unit of work, while one is open (./db-unit.ts). */
  unit: RequestUnit | undefined;

  constructor(limitMs: number, caller: string) {
    this.limitMs = limitMs;
    this.caller = caller;
  }

  /** Milliseconds with at least one statement of this request waiting or running. */
  used(now = performance.now()): number {
    return this.#spent + (this.#active > 0 ? now - this.#since : 0);
  }

  remaining(): number {
    return this.limitMs - this.used();
  }

  /**
   * Throws `over_budget` once the budget is used up: called before each statement. A request that
   * has committed a write is let finish (PostgreSQL's statement_timeout still bounds each of its
   * statements): refusing its next statement would leave it half-written.
   */
  check(): void {
    if (this.stoppable && this.remaining() <= 0) throw overBudget(this.limitMs);
  }

  /** Whether the request may still be stopped (it has committed no write). */
  get stoppable(): boolean {
    return !this.#wrote;
  }

  /** A write of this request was committed (a statement outside a transaction, or a commit). */
  wrote(): void {
    this.#wrote = true;
  }

  /** A statement (or a transaction) starts waiting for its turn. */
  begin(): void {
    if (this.#active++ === 0) this.#since = performance.now();
  }

  /** …and has given its connection back. */
  end(): void {
    if (--this.#active === 0) this.#spent += performance.now() - this.#since;
  }
}

const current = new AsyncLocalStorage<DbBudget | 'background'>();

/** Runs a request's work under its budget. */
export function withBudget<T>(budget: DbBudget, fn: () => T): T {
  return current.run(budget, fn);
}

/** Runs work that is no request's (jobs, ingest, migrations, the CLI) in the background class. */
export function inBackground<T>(fn: () => T): T {
  return current.run('background', fn);
}

/** The budget of the request this code runs for; undefined outside any request. */
export function currentBudget(): DbBudget | undefined {
  const store = current.getStore();
  return store === 'background' ? undefined : store;
}

/** Names the caller whose turn a request takes, once its credential is known. */
export function noteCaller(caller: string): void {
  const budget = currentBudget();
  if (budget) budget.caller = caller;
}

/** Whether this code runs inside its request's open unit of work (./db-unit.ts). */
export function inRequestUnit(): boolean {
  return currentBudget()?.unit?.open === true;
}

/**
 * Runs `fn` once what this code wrote is committed: at once, or inside a request's unit of work
 * when the unit commits (never, if it rolls back). For news of a write sent outside the database.
 */
export async function afterCommit(fn: () => Promise<void>): Promise<void> {
  const unit = currentBudget()?.unit;
  if (unit?.open) unit.afterCommit(fn);
  else await fn();
}
