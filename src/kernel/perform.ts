// Performing an operation: the gates every surface passes through, knowing nothing of HTTP
// (house style, "Three gates"). The credential has already made the Actor (gate 1,
// modules/credentials/verify.ts); here the access check (gate 2, kernel/operations.ts) runs
// exactly once, the request is counted against the caller's limits, the input is checked against
// the operation's schema and the module's service runs (it applies gate 3, its object policy).
//
// Counting: every authenticated answer counts as one request, refusals included (a 403, a 404);
// only a 429 is not counted (decisions.md "Envelopes and limits"). The website's own pages pass
// `count: false`: the limits are those of API credentials.
import type { Actor } from './actor.ts';
import type { Call, Operation } from './catalogue.ts';
import { AppError } from './errors.ts';
import type { LimitState } from './limit-state.ts';
import { accessRefusal, type LimitClass } from './operations.ts';
import { validate } from './schema.ts';

export interface Limiter {
  /** Counts one request of this class for the actor's limits owner, or throws AppError 429 (nothing counted). */
  consume(actor: Actor, limitClass: LimitClass): Promise<LimitState>;
}

export interface PerformOptions {
  call: Call;
  /** Count against the caller's limits (default true). */
  count?: boolean;
  /**
   * Runs after the access check and before the limits are counted (an HTTP write's idempotency
   * claim). It may name the limit class to count instead: an idempotent replay uses no AI answer.
   */
  beforeLimits?(): Promise<LimitClass | undefined>;
}

/** An admitted call: the access check passed and the request is counted. Only this runs an operation. */
export interface Admission {
  readonly actor: Actor;
  readonly operation: Operation;
  readonly call: Call;
  /** The caller's limits after counting this request; null when not counted. */
  readonly limits: LimitState | null;
}

export interface Performer<Id extends string = string> {
  /** The operation with this id; an unknown id is a programming error. */
  get(id: Id): Operation;
  all(): readonly Operation[];
  /** Whether the actor may perform it now (what a surface offers: MCP lists, page buttons). Never throws. */
  mayPerform(actor: Actor, id: Id): boolean;
  /** The access check and the count, for surfaces that validate input themselves (HTTP routes). */
  admit(actor: Actor, id: Id, options: PerformOptions): Promise<Admission>;
  /** Runs an admitted operation; `validated` when the surface checked the input against the same schema. */
  execute(admission: Admission, input: unknown, options?: { validated?: boolean }): Promise<unknown>;
  /** admit, check the input, run: what every surface without its own validation calls. */
  perform(actor: Actor, id: Id, input: unknown, options: PerformOptions): Promise<{ result: unknown; limits: LimitState | null }>;
  /** Counts a request refused before any operation was admitted (a malformed body); throws 429 when none is left. */
  countRefusal(actor: Actor): Promise<LimitState>;
}

export function createPerformer<Id extends string>(operations: readonly Operation[], limiter: Limiter): Performer<Id> {
  const byId = new Map<string, Operation>();
  for (const op of operations) {
    if (byId.has(op.id)) throw new Error(`Operation ${op.id} is defined twice.`);
    byId.set(op.id, op);
  }
  const get = (id: string): Operation => {
    const op = byId.get(id);
    if (!op) throw new Error(`No operation ${id}.`);
    return op;
  };
  const countRefusal = (actor: Actor) => limiter.consume(actor, 'data');

  async function admit(actor: Actor, id: string, options: PerformOptions): Promise<Admission> {
    const operation = get(id);
    const count = options.count !== false;
    const refusal = accessRefusal(actor, operation.access);
    if (refusal) {
      // A refused call is still a request: counted (or refused with 429 when none is left).
      if (count) refusal.limits = await countRefusal(actor);
      throw refusal;
    }
    let limits: LimitState | null = null;
    try {
      const limitClass = (await options.beforeLimits?.()) ?? operation.limit;
      if (count) limits = await limiter.consume(actor, limitClass);
    } catch (err) {
      if (count && err instanceof AppError && err.status !== 429 && !err.limits && err.status < 500) err.limits = await countRefusal(actor);
      throw err;
    }
    return Object.freeze({ actor, operation, call: options.call, limits });
  }

  async function execute(admission: Admission, input: unknown, options: { validated?: boolean } = {}): Promise<unknown> {
    const { operation, actor, call } = admission;
    try {
      const checked = options.validated ? input : validate(operation.input, input, `input of ${operation.id}`);
      return await operation.run(actor, checked, call);
    } catch (err) {
      if (err instanceof AppError && admission.limits && !err.limits) err.limits = admission.limits;
      throw err;
    }
  }

  return {
    get,
    all: () => [...byId.values()],
    mayPerform: (actor, id) => accessRefusal(actor, get(id).access) === null,
    admit,
    execute,
    async perform(actor, id, input, options) {
      const admission = await admit(actor, id, options);
      return { result: await execute(admission, input), limits: admission.limits };
    },
    countRefusal,
  };
}
