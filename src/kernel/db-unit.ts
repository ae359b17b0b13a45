// A request's unit of work (issue 19: "nothing written is ever lost or done twice"). One
// transaction on one connection, opened for a request by the HTTP surface's idempotency step;
// from then on every statement of that request — whichever module issues it — runs on the
// unit's connection (kernel/db-turns.ts hands it out), and a module's own transaction becomes a
// savepoint inside it. An idempotent write's effect and its stored answer therefore
// commit together or not at all, and a lock taken in the unit (the key's claim) lasts exactly as
// long as it: when the process dies, its connection closes and PostgreSQL rolls the unit back.
//
// The unit holds its connection for the run: on the embedded database, which is one connection,
// other requests wait their turn meanwhile (a write runs in milliseconds).
import { CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely';

export class RequestUnit {
  /** The connection the unit's transaction runs on (a turn the driver handed out). */
  readonly connection: DatabaseConnection;
  #open = true;
  #savepoints = 0;
  #afterCommit: (() => Promise<void>)[] = [];
  readonly #end: (commit: boolean) => Promise<void>;

  constructor(connection: DatabaseConnection, end: (commit: boolean) => Promise<void>) {
    this.connection = connection;
    this.#end = end;
  }

  get open(): boolean {
    return this.#open;
  }

  /** The unit's connection as one statement or transaction of the request sees it. */
  share(): SharedConnection {
    return new SharedConnection(this);
  }

  nextSavepoint(): string {
    return `request_unit_${++this.#savepoints}`;
  }

  /** Runs `fn` once the unit has committed (never, if it rolls back): news of a write. */
  afterCommit(fn: () => Promise<void>): void {
    this.#afterCommit.push(fn);
  }

  /** Commits everything the request wrote (throws when the commit fails: then nothing was written). */
  async commit(): Promise<void> {
    if (!this.#open) throw new Error('The request unit has already ended.');
    this.#open = false;
    await this.#end(true);
    for (const fn of this.#afterCommit.splice(0)) await fn();
  }

  /** Rolls everything back; safe to call more than once, and after a commit (it then does nothing). */
  async rollback(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#end(false);
  }
}

/** A statement's or a module transaction's view of the unit: begin/commit become a savepoint. */
export class SharedConnection implements DatabaseConnection {
  readonly unit: RequestUnit;
  /** Set while a module's transaction runs on it (kernel/db-turns.ts). */
  savepoint: string | undefined;

  constructor(unit: RequestUnit) {
    this.unit = unit;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A statement after the unit ended would run outside it, in autocommit: refused instead.
    if (!this.unit.open) return Promise.reject(new Error('The request unit has ended.'));
    return this.unit.connection.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.unit.connection.streamQuery<R>(query, chunkSize);
  }

  async begin(): Promise<void> {
    this.savepoint = this.unit.nextSavepoint();
    await this.executeQuery(CompiledQuery.raw(`savepoint ${this.savepoint}`));
  }

  async commit(): Promise<void> {
    await this.executeQuery(CompiledQuery.raw(`release savepoint ${this.savepoint}`));
  }

  async rollback(): Promise<void> {
    await this.executeQuery(CompiledQuery.raw(`rollback to savepoint ${this.savepoint}`));
    await this.executeQuery(CompiledQuery.raw(`release savepoint ${this.savepoint}`));
  }
}
