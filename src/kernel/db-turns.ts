// Fair turns on the database's connections (issue 17 §1). A Kysely driver wrapper that hands out
// at most `capacity` connections at once — one on the embedded database, which is one connection,
// the pool's size on a server — and, when callers wait, gives the next turn to the caller whose
// turn is oldest (round robin by DbBudget.caller), so a key sending many requests at once waits
// behind everyone else's one, instead of everyone waiting behind all of its statements.
//
// Each turn is checked against the request's budget (./db-budget.ts): a request whose time is used
// up is refused before its statement is issued, and a turn waited for longer than the budget
// allows is given up (503 over_budget) rather than waited on. Transaction control (begin, commit,
// rollback, savepoints) is never refused, so a transaction cut off is always rolled back; and a
// request that has committed a write is let finish, so none is left half-written.
//
// On the embedded database every turn is handed out from a setImmediate callback: the database
// runs on the event loop, and statements handed from one promise to the next would hold it until
// the whole queue drained, with no request read or answered meanwhile (/robots.txt waited 2 s
// behind GraphQL loops). Between two turns the loop now reads and answers what came in.
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { currentBudget, type DbBudget } from './db-budget.ts';
import { RequestUnit, SharedConnection } from './db-unit.ts';
import { overBudget } from './errors.ts';

export interface TurnOptions {
  /** Connections handed out at once (the embedded database: 1; a server: its pool's size). */
  capacity: number;
  /** Hand each turn out from a setImmediate callback (the embedded database shares the event loop). */
  yieldBetweenTurns: boolean;
  /** Background work (no request's budget) takes no turn here: a server gives it a pool of its own. */
  backgroundApart: boolean;
}

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout | undefined;
}

/** The caller of background work on the embedded database (jobs, timers, start-up): one turn among the others. */
const UNSCOPED = 'unscoped';

/** Statements that only read: anything else (or a script PostgreSQL would read as several) may write. */
const READ_ONLY = /^\s*(?:select|values|show|explain)\b[^;]*$/i;

function mayWrite(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (kind === 'SelectQueryNode') return false;
  return kind !== 'RawNode' || !READ_ONLY.test(query.sql);
}

/** A connection as the caller sees it: each statement is checked against its request's budget first. */
class BudgetedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly budget: DbBudget | undefined;
  inTransaction = false;
  constructor(inner: DatabaseConnection, budget: DbBudget | undefined) {
    this.inner = inner;
    this.budget = budget;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.budget) return this.inner.executeQuery<R>(query);
    this.budget.check();
    const result = await this.inner.executeQuery<R>(query);
    // Outside a transaction a write is committed as it runs; inside one, at commit (FairDriver).
    if (!this.inTransaction && mayWrite(query)) this.budget.wrote();
    return result;
  }
  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    this.budget?.check();
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

export class FairDriver implements Driver {
  readonly #inner: Driver;
  readonly #options: TurnOptions;
  #busy = 0;
  /** Waiting turns by caller; the map's order is the round: the next turn goes to the first caller. */
  readonly #waiting = new Map<string, Waiter[]>();
  #dispatching = false;

  constructor(inner: Driver, options: TurnOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const budget = currentBudget();
    const unit = budget?.unit;
    // The request's unit of work (./db-unit.ts) already holds its turn and connection.
    if (unit?.open) return unit.share();
    if (this.#options.backgroundApart && !budget) return this.#inner.acquireConnection();
    budget?.check();
    budget?.begin();
    try {
      await this.#turn(budget);
    } catch (err) {
      budget?.end();
      throw err;
    }
    try {
      return new BudgetedConnection(await this.#inner.acquireConnection(), budget);
    } catch (err) {
      budget?.end();
      this.#free();
      throw err;
    }
  }

  /**
   * Opens the current request's unit of work: a turn, a connection and a transaction, held until
   * the unit commits or rolls back.
   */
  async openUnit(): Promise<RequestUnit> {
    const budget = currentBudget();
    if (!budget) throw new Error('A unit of work belongs to a request.');
    if (budget.unit?.open) throw new Error('The request already has a unit of work.');
    const connection = await this.acquireConnection();
    try {
      await this.beginTransaction(connection, {});
    } catch (err) {
      await this.releaseConnection(connection);
      throw err;
    }
    const unit = new RequestUnit(connection, async (commit) => {
      if (budget.unit === unit) budget.unit = undefined;
      try {
        if (commit) await this.commitTransaction(connection);
        else await this.rollbackTransaction(connection);
      } finally {
        await this.releaseConnection(connection);
      }
    });
    budget.unit = unit;
    return unit;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof SharedConnection) return;
    if (!(connection instanceof BudgetedConnection)) return this.#inner.releaseConnection(connection);
    try {
      await this.#inner.releaseConnection(connection.inner);
    } finally {
      connection.budget?.end();
      this.#free();
    }
  }

  /** Resolves when this caller's turn comes; rejects (over_budget) when the budget runs out first. */
  #turn(budget: DbBudget | undefined): Promise<void> {
    if (!this.#options.yieldBetweenTurns && this.#busy < this.#options.capacity && this.#waiting.size === 0) {
      this.#busy++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const caller = budget?.caller ?? UNSCOPED;
      const waiter: Waiter = { grant: resolve, timer: undefined };
      if (budget?.stoppable) {
        waiter.timer = setTimeout(
          () => {
            const queue = this.#waiting.get(caller);
            const at = queue?.indexOf(waiter) ?? -1;
            if (at < 0) return;
            queue!.splice(at, 1);
            if (queue!.length === 0) this.#waiting.delete(caller);
            reject(overBudget(budget.limitMs));
          },
          Math.max(0, budget.remaining()),
        );
      }
      const queue = this.#waiting.get(caller);
      if (queue) queue.push(waiter);
      else this.#waiting.set(caller, [waiter]);
      this.#dispatch();
    });
  }

  #free(): void {
    this.#busy--;
    this.#dispatch();
  }

  /** Hands free connections to waiting callers in turn (from setImmediate on the embedded database). */
  #dispatch(): void {
    if (this.#waiting.size === 0 || this.#busy >= this.#options.capacity) return;
    if (!this.#options.yieldBetweenTurns) {
      this.#handOut();
      return;
    }
    if (this.#dispatching) return;
    this.#dispatching = true;
    setImmediate(() => {
      this.#dispatching = false;
      this.#handOut();
    });
  }

  #handOut(): void {
    while (this.#busy < this.#options.capacity) {
      const first = this.#waiting.entries().next();
      if (first.done) return;
      const [caller, queue] = first.value;
      const waiter = queue.shift()!;
      // The caller goes to the back of the round, with whatever it still has waiting.
      this.#waiting.delete(caller);
      if (queue.length > 0) this.#waiting.set(caller, queue);
      clearTimeout(waiter.timer);
      this.#busy++;
      waiter.grant();
    }
  }

  async beginTransaction(c: DatabaseConnection, s: TransactionSettings): Promise<void> {
    if (c instanceof SharedConnection) return c.begin();
    await this.#inner.beginTransaction(innerOf(c), s);
    if (c instanceof BudgetedConnection) c.inTransaction = true;
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    if (c instanceof SharedConnection) return c.commit();
    if (c instanceof BudgetedConnection) {
      c.inTransaction = false;
      c.budget?.wrote();
    }
    await this.#inner.commitTransaction(innerOf(c));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    if (c instanceof SharedConnection) return c.rollback();
    if (c instanceof BudgetedConnection) c.inTransaction = false;
    await this.#inner.rollbackTransaction(innerOf(c));
  }
  savepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.#inner.savepoint!(innerOf(c), name, compile);
  }
  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    return this.#inner.rollbackToSavepoint!(innerOf(c), name, compile);
  }
  releaseSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    return this.#inner.releaseSavepoint!(innerOf(c), name, compile);
  }
  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/** Transaction control runs on the connection itself: never refused, so a cut-off transaction is always rolled back. */
function innerOf(c: DatabaseConnection): DatabaseConnection {
  const own = c instanceof SharedConnection ? c.unit.connection : c;
  return own instanceof BudgetedConnection ? own.inner : own;
}
