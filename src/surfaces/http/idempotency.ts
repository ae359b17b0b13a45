// Idempotency-Key on every write route (spec "v2 rules" 4, decisions.md "Envelopes and limits"),
// wired in by the route registration so no route needs code of its own. Three steps:
//   1. claim (inside the guard, after the scope check, before the limits are counted);
//   2. replay (right after the guard): a finished twin's answer is sent, the handler never runs;
//   3. store (onSend): the answer of the run that held the claim is kept, or the key is released.
// The draft this follows: IETF httpapi "The Idempotency-Key HTTP Header Field".
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { LimitClass } from '../../kernel/operations.ts';
import { withholdKeyValues } from '../../modules/credentials/index.ts';
import { checkKey, type HeldClaim, isStored, keptHeaders, requestFingerprint, type StoredAnswer } from '../../modules/idempotency/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { held?: HeldClaim; replay?: StoredAnswer };
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
 * Step 1, the guard's `beforeLimits`. Claims the key for the credential's owner (a team's keys
 * and tokens share one key space). A replay counts as a request but, per decisions.md, never
 * uses an AI answer.
 */
export function claimIdempotencyKey(ctx: AppContext, operationId: OperationId) {
  const replayClass: LimitClass | undefined = ctx.operations.get(operationId).limit === 'ai' ? 'data' : undefined;
  return async (request: FastifyRequest): Promise<LimitClass | undefined> => {
    const raw = headerValue(request);
    if (raw === undefined) return undefined;
    const key = checkKey(raw);
    const actor = request.actor!;
    const owner = actor.limitsOwner;
    // The person is part of "the same request": a team shares one key space, but one member's
    // stored answer is never replayed to another (they get 422 for a reused key).
    const fingerprint = requestFingerprint(request.method, request.url, request.body, actor.account.id);
    const result = await ctx.services.idempotency.claim({ owner, key, fingerprint });
    switch (result.outcome) {
      case 'claimed':
        request.idempotency = { held: { owner, key, claim: result.claim } };
        return undefined;
      case 'replay':
        request.idempotency = { replay: result.answer };
        return replayClass;
      case 'in_progress':
        throw new AppError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running; retry once it has finished.');
      case 'mismatch':
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.',
        );
    }
  };
}

/** Step 2: sends the stored answer of a finished identical request. */
export async function sendReplay(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const answer = request.idempotency?.replay;
  if (!answer) return undefined;
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.status(answer.status).send(answer.body);
}

/** Step 3, an onSend hook: keeps the answer of the run that held the claim, or releases the key. */
export function storeIdempotentAnswer(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const held = request.idempotency?.held;
    if (!held) return payload;
    request.idempotency = {};
    try {
      if (!isStored(reply.statusCode)) {
        await ctx.services.idempotency.release(held);
      } else {
        const headers: Record<string, string> = {};
        for (const name of keptHeaders) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
        }
        const body = payload === null || payload === undefined ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload);
        // A new key's value goes out once and is never kept: its replay shows the prefix only.
        await ctx.services.idempotency.complete(held, { status: reply.statusCode, headers, body: withholdKeyValues(body) });
      }
    } catch (err) {
      // The effect has happened and its answer goes out; only the record of it failed. The claim
      // stays "running", so retries get 409 until it counts as abandoned.
      request.log.error({ err }, 'could not record the idempotent answer');
    }
    return payload;
  };
}
