// Idempotency-Key on every write route (spec "v2 rules" 4, decisions.md "Envelopes and limits":
// one effect per key, its answer replayed for 24 hours, a 5xx not stored), wired in by the route
// registration so no route needs code of its own. A request with a key runs in a unit of work
// (kernel/db-unit.ts): one transaction holding the key's claim, the write's effect and its answer.
//   1. look up (inside the guard, after the scope check, before the limits are counted): a
//      finished twin is found, or a different request with the key is refused;
//   2. replay or run (right after the guard): a finished twin's answer is sent and the handler
//      never runs; otherwise the unit opens and the key is claimed in it, and the handler runs
//      in the unit (counting the limits stays outside: its counters are not rolled back);
//   3. store (onSend): the answer is written in the unit and the unit commits before the answer
//      leaves — or, for an answer not kept (5xx, 429), everything rolls back.
// A process killed mid-run commits nothing and its claim ends with its connection: a retry runs
// again at once. A commit that fails turns the answer into that failure (nothing was written).
// The draft this follows: IETF httpapi "The Idempotency-Key HTTP Header Field".
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { currentBudget, type DbBudget, withBudget } from '../../kernel/db-budget.ts';
import type { RequestUnit } from '../../kernel/db-unit.ts';
import { AppError } from '../../kernel/errors.ts';
import type { LimitClass } from '../../kernel/access.ts';
import { withholdKeyValues } from '../../modules/credentials/index.ts';
import { checkKey, type ClaimOutcome, type HeldClaim, isStored, keptHeaders, requestFingerprint, type StoredAnswer } from '../../modules/idempotency/index.ts';

interface Run {
  held: HeldClaim;
  unit: RequestUnit;
  budget: DbBudget;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { pending?: HeldClaim; run?: Run; replay?: StoredAnswer; afterwards?: HeldClaim };
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The key as the client wrote it. Node reads header bytes as Latin-1, so a key sent as UTF-8 (the
 * encoding clients use) is decoded back from those bytes: its length then counts characters, as
 * decisions.md says, not bytes.
 */
function headerValue(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value === undefined || !/[^ -~\t]/.test(value)) return value;
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\ufffd') ? value : utf8;
}

/**
 * Step 1, the guard's `beforeLimits`: looks the key up for the credential's owner (a team's keys
 * and tokens share one key space) without claiming it, so a replay is counted as a request that,
 * per decisions.md, never uses an AI answer; a reused key is refused before anything runs.
 */
export function lookUpIdempotencyKey(ctx: AppContext, operationId: OperationId) {
  const replayClass: LimitClass | undefined = ctx.performer.get(operationId).limit === 'ai' ? 'data' : undefined;
  return async (request: FastifyRequest): Promise<LimitClass | undefined> => {
    const raw = headerValue(request);
    if (raw === undefined) return undefined;
    const key = checkKey(raw);
    const actor = request.actor!;
    // The person is part of "the same request": a team shares one key space, but one member's
    // stored answer is never replayed to another (they get 422 for a reused key).
    const input = { owner: actor.limitsOwner, key, fingerprint: requestFingerprint(request.method, request.url, request.body, actor.account.id) };
    const found = await ctx.services.idempotency.lookup(input);
    if (found.outcome === 'replay') {
      request.idempotency = { replay: found.answer };
      return replayClass;
    }
    refuse(found);
    request.idempotency = { pending: input };
    return undefined;
  };
}

function refuse(outcome: ClaimOutcome): void {
  if (outcome.outcome === 'in_progress') {
    throw new AppError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running; retry once it has finished.');
  }
  if (outcome.outcome === 'mismatch') {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.',
    );
  }
}

function sendReplay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.status(answer.status).send(answer.body);
}

/**
 * Step 2, right after the guard (the limits are counted): sends a finished twin's answer, or opens
 * the request's unit of work and claims the key in it — a twin that finished meanwhile is
 * replayed, one still running is 409 — so the handler runs inside the unit.
 */
export function replayOrRun(ctx: AppContext, operationId: OperationId) {
  // An AI answer changes no data, and its run waits on the model for seconds: holding a unit (on
  // the embedded database, its one connection) that long would stall every other caller. Its
  // answer is stored afterwards in a short unit of its own; twins sent at once may then each run
  // (each uses an AI answer), and the first stored is the one replayed.
  const storedAfterwards = ctx.performer.get(operationId).waitsOnModel;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const { replay, pending } = request.idempotency ?? {};
    if (replay) return sendReplay(reply, replay);
    if (!pending) return undefined;
    if (storedAfterwards) {
      request.idempotency = { afterwards: pending };
      return undefined;
    }
    const budget = currentBudget()!;
    const unit = await ctx.database.openUnit();
    let claimed: ClaimOutcome;
    try {
      claimed = await ctx.services.idempotency.claim(pending);
    } catch (err) {
      await unit.rollback();
      throw err;
    }
    if (claimed.outcome === 'claimed') {
      request.idempotency = { run: { held: pending, unit, budget } };
      return undefined;
    }
    await unit.rollback();
    request.idempotency = {};
    if (claimed.outcome === 'replay') return sendReplay(reply, claimed.answer);
    refuse(claimed);
    return undefined;
  };
}

/** Step 3, an onSend hook: stores the answer in the run's unit and commits it, or rolls it all back. */
export function storeIdempotentAnswer(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const afterwards = request.idempotency?.afterwards;
    if (afterwards) {
      request.idempotency = {};
      if (isStored(reply.statusCode)) await storeAfterwards(ctx, request, reply, afterwards, payload);
      return payload;
    }
    const run = request.idempotency?.run;
    if (!run) return payload;
    request.idempotency = {};
    const { held, unit, budget } = run;
    if (!isStored(reply.statusCode)) {
      await unit.rollback().catch((err: unknown) => request.log.warn({ err }, 'rolling back an unanswered write failed; its connection ends it'));
      return payload;
    }
    const answer = answerOf(reply, payload);
    try {
      // In the request's own context, which a hook after the handler need not run in.
      await withBudget(budget, async () => {
        await ctx.services.idempotency.complete(held, answer);
        await unit.commit();
      });
    } catch (err) {
      // Nothing of the run was committed: the client is told that failure, never the answer.
      await unit.rollback().catch(() => {});
      throw err;
    }
    return payload;
  };
}

/** What is kept of an answer; a new key's value goes out once and is never kept (its replay shows the prefix only). */
function answerOf(reply: FastifyReply, payload: unknown): StoredAnswer {
  const headers: Record<string, string> = {};
  for (const name of keptHeaders) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const body = payload === null || payload === undefined ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload);
  return { status: reply.statusCode, headers, body: withholdKeyValues(body) };
}

/** An answer that changed no data, stored after it ran: claimed and kept in one short unit, unless a twin's is kept already. */
async function storeAfterwards(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, held: HeldClaim, payload: unknown): Promise<void> {
  const unit = await ctx.database.openUnit();
  try {
    const claimed = await ctx.services.idempotency.claim(held);
    if (claimed.outcome === 'claimed') {
      await ctx.services.idempotency.complete(held, answerOf(reply, payload));
      await unit.commit();
    } else await unit.rollback();
  } catch (err) {
    // The answer is still right; only keeping it failed, so a retry runs again (it changes no data).
    await unit.rollback().catch(() => {});
    request.log.warn({ err }, 'could not keep the answer for its Idempotency-Key');
  }
}

/** A safety net (onResponse): a unit still open when the answer has gone is rolled back. */
export async function endOpenUnit(request: FastifyRequest): Promise<void> {
  const run = request.idempotency?.run;
  if (!run) return;
  request.idempotency = {};
  await run.unit.rollback().catch(() => {});
}
