// Performing an operation: the gates every surface passes through, knowing nothing of HTTP
// (house style, "Three gates"). The credential has already made the Actor (gate 1,
// modules/credentials/verify.ts); here the access check (gate 2, kernel/access.ts) runs
// exactly once, the request is counted against the caller's limits, the input is checked against
// the operation's schema and the module's service runs (it applies gate 3, its object policy).
//
// Counting: every authenticated answer counts as one request, refusals included (a 403, a 404);
// only a 429 is not counted (decisions.md "Envelopes and limits"). The website's own pages pass
// `count: false`: the limits are those of API credentials.
//
// An AI answer is counted when the call is admitted, so the daily AI limit holds however many
// answers run at once, and given back when the call ends without an answer (the model timed
// out, the input was refused): only an answer given uses one up. The request itself stays counted.
import type { Actor } from './actor.ts';
import type { Call, Operation } from './catalogue.ts';
import { type Clock, systemClock } from './clock.ts';
import { noteCaller } from './db-budget.ts';
import { AppError } from './errors.ts';
import type { LimitState } from './limit-state.ts';
import { accessRefusal, type LimitClass } from './access.ts';
import { validate } from './schema.ts';

export interface Limiter {
  /** Counts one request of this class for the actor's limits owner, or throws AppError 429 (nothing counted). */
  consume(actor: Actor, limitClass: LimitClass): Promise<LimitState>;
  /** Counts it without waiting when it can (a block of units held in memory); undefined, with nothing counted, when it cannot. */
  consumeNow?(actor: Actor, limitClass: LimitClass, now: Date): LimitState | undefined;
  /** Gives back the AI answer counted at `countedAt` (the request stays counted); the limits as they are now. */
  giveBackAnswer(actor: Actor, countedAt: Date): Promise<LimitState>;
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
  /** The class counted ('ai' holds an AI answer until the call ends), or null when not counted. */
  readonly counted: LimitClass | null;
  readonly countedAt: Date;
}

export interface Performer<Id extends string = string> {
  /** The operation with this id; an unknown id is a programming error. */
  get(id: Id): Operation;
  all(): readonly Operation[];
  /** Whether the actor may perform it now (what a surface offers: MCP lists, page buttons). Never throws. */
  mayPerform(actor: Actor, id: Id): boolean;
  /** The access check and the count, for surfaces that validate input themselves (HTTP routes). */
  admit(actor: Actor, id: Id, options: PerformOptions): Promise<Admission>;
  /**
   * admit's answer without waiting, when it has one: the access check passes, nothing runs before
   * the limits (no beforeLimits) and the limiter counts from memory. Undefined otherwise, with
   * nothing counted or refused: call admit, which then decides (and refuses) as always.
   */
  admitNow(actor: Actor, id: Id, options: PerformOptions): Admission | undefined;
  /** Runs an admitted operation; `validated` when the surface checked the input against the same schema. */
  execute(admission: Admission, input: unknown, options?: { validated?: boolean }): Promise<unknown>;
  /** admit, check the input, run: what every surface without its own validation calls. */
  perform(actor: Actor, id: Id, input: unknown, options: PerformOptions): Promise<{ result: unknown; limits: LimitState | null }>;
  /** Counts a request refused before any operation was admitted (a malformed body); throws 429 when none is left. */
  countRefusal(actor: Actor): Promise<LimitState>;
  /**
   * Counts one request that performs several operations (a GraphQL document), which then run with
   * `count: false`; throws 429 when none is left.
   */
  countRequest(actor: Actor): Promise<LimitState>;
  /**
   * An admitted call that ends without running (its input was refused): gives back the AI answer
   * it holds, and returns the limits then (null when it held none). Safe to call more than once,
   * and after the call ran (it then changes nothing).
   */
  abandon(admission: Admission): Promise<LimitState | null>;
}

export function createPerformer<Id extends string>(operations: readonly Operation[], limiter: Limiter, clock: Clock = systemClock): Performer<Id> {
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

  /** From here the request takes its database turns as whoever pays for it (kernel/db-turns.ts). */
  function payer(actor: Actor): void {
    if (actor.credential.type !== 'visitor') noteCaller(`${actor.limitsOwner.type}:${actor.limitsOwner.id}`);
  }

  function admitNow(actor: Actor, id: string, options: PerformOptions): Admission | undefined {
    const operation = get(id);
    if (options.beforeLimits || accessRefusal(actor, operation.access)) return undefined;
    const countedAt = clock.now();
    let limits: LimitState | null = null;
    if (options.count !== false) {
      limits = limiter.consumeNow?.(actor, operation.limit, countedAt) ?? null;
      if (!limits) return undefined;
    }
    payer(actor);
    return Object.freeze({ actor, operation, call: options.call, limits, counted: limits ? operation.limit : null, countedAt });
  }

  async function admit(actor: Actor, id: string, options: PerformOptions): Promise<Admission> {
    const operation = get(id);
    payer(actor);
    const count = options.count !== false;
    const refusal = accessRefusal(actor, operation.access);
    if (refusal) {
      // A refused call is still a request: counted (or refused with 429 when none is left).
      if (count) refusal.limits = await countRefusal(actor);
      throw refusal;
    }
    let limits: LimitState | null = null;
    let counted: LimitClass | null = null;
    const countedAt = clock.now();
    try {
      const limitClass = (await options.beforeLimits?.()) ?? operation.limit;
      if (count) {
        limits = await limiter.consume(actor, limitClass);
        counted = limitClass;
      }
    } catch (err) {
      if (count && err instanceof AppError && err.status !== 429 && !err.limits && err.status < 500) err.limits = await countRefusal(actor);
      throw err;
    }
    return Object.freeze({ actor, operation, call: options.call, limits, counted, countedAt });
  }

  // Admissions whose AI answer is settled: used by an answer, or given back (with the limits then);
  // and those whose operation has started, which settles them itself when it ends.
  const settled = new WeakMap<Admission, LimitState | null>();
  const started = new WeakSet<Admission>();

  async function settle(admission: Admission, answered: boolean): Promise<LimitState | null> {
    if (settled.has(admission)) return settled.get(admission) ?? null;
    settled.set(admission, null);
    if (answered || (admission.counted !== 'ai' && admission.counted !== 'answer')) return null;
    const limits = await limiter.giveBackAnswer(admission.actor, admission.countedAt);
    settled.set(admission, limits);
    return limits;
  }

  async function execute(admission: Admission, input: unknown, options: { validated?: boolean } = {}): Promise<unknown> {
    const { operation, actor, call } = admission;
    if (started.has(admission) || settled.has(admission)) throw new Error(`An admission of ${operation.id} runs once, and not after it was abandoned.`);
    started.add(admission);
    let result: unknown;
    try {
      const checked = options.validated ? input : validate(operation.input, input, `input of ${operation.id}`);
      result = await operation.run(actor, checked, call);
    } catch (err) {
      // Giving the answer back is best effort: if the store fails, the unit stays counted.
      const given = await settle(admission, false).catch(() => null);
      if (err instanceof AppError && !err.limits) {
        const limits = given ?? admission.limits;
        if (limits) err.limits = limits;
      }
      throw err;
    }
    await settle(admission, true);
    return result;
  }

  return {
    get,
    all: () => [...byId.values()],
    mayPerform: (actor, id) => accessRefusal(actor, get(id).access) === null,
    admit,
    admitNow,
    execute,
    async perform(actor, id, input, options) {
      const admission = await admit(actor, id, options);
      return { result: await execute(admission, input), limits: admission.limits };
    },
    countRefusal,
    countRequest: countRefusal,
    // A call still running (an A2A task answered after its request returned) settles when it ends.
    abandon: async (admission) => (started.has(admission) ? (settled.get(admission) ?? null) : settle(admission, false)),
  };
}
