// One admission for every HTTP surface (routes of v1 and v2, MCP tools, A2A messages, GraphQL
// fields): the operation is admitted by the kernel (gate 2 and the limits, kernel/perform.ts), a
// missing scope becomes the RFC 6750 §3.1 insufficient_scope challenge naming the operation's own
// scopes at the surface's protected resource (RFC 9728 §5.1), the caller's limits go on the reply,
// and the admission is settled when the reply closes: an AI answer held by a call that never ran
// (its input refused, the client gone, the protocol's SDK refusing it) is given back then. A call
// that ran settles itself when it ends, so settling again changes nothing (Performer.abandon).
// A surface holds nothing of this by hand: it admits, runs (`run`), or settles early (`settle`),
// and the limits each step leaves are noted on the request and the reply here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type LimitState, setLimitHeaders } from '../../kernel/limit-state.ts';
import type { Admission, PerformOptions } from '../../kernel/perform.ts';
import { insufficientScopeError, type Surface } from '../../modules/credentials/index.ts';

/** The kernel's options (which surface performs it, whether it counts, a step before counting), and: */
export interface AdmitOptions extends PerformOptions {
  /** The protected resource a scope challenge points at. */
  resource: Surface;
}

/** Notes the caller's limits on the request (error answers read them) and on the reply's headers. */
export function noteLimits(request: FastifyRequest, reply: FastifyReply, limits: LimitState | null | undefined): void {
  if (!limits) return;
  // Several operations of one request (GraphQL root fields) are admitted at once and may settle
  // in any order: an older snapshot (more left in both windows) never replaces a newer one.
  const seen = request.limitState;
  if (seen && limits.day.remaining > seen.day.remaining && limits.minute.remaining > seen.minute.remaining) return;
  request.limitState = limits;
  if (!reply.sent && !reply.raw.headersSent) setLimitHeaders(reply, limits);
}

/**
 * Admits `operationId` for the request's caller, or throws the refusal: the scope challenge for a
 * missing scope, the kernel's AppError (counted, its limits on it) for anything else. Admitted
 * without waiting when it can be (admitNow).
 */
export async function admit(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operationId: OperationId,
  options: AdmitOptions,
): Promise<Admission> {
  return admitNow(ctx, request, reply, operationId, options) ?? admitWaiting(ctx, request, reply, operationId, options);
}

/** admit's path that waits (the store counts, or a refusal): for a caller that tried admitNow already. */
export async function admitWaiting(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operationId: OperationId,
  options: AdmitOptions,
): Promise<Admission> {
  let admission: Admission;
  try {
    admission = await ctx.performer.admit(request.actor!, operationId, options);
  } catch (err) {
    if (err instanceof AppError) noteLimits(request, reply, err.limits);
    // RFC 6750 §3.1: a token without the scope a resource needs is answered 403 insufficient_scope
    // with the scope to ask for, so an OAuth client can ask for a wider grant (MCP 2025-11-25
    // basic/authorization §Scope Challenge Handling) and a key's holder learns which key to make.
    if (err instanceof AppError && err.code === 'scope_missing') {
      const { scopes } = ctx.performer.get(operationId).access;
      const challenge = insufficientScopeError(ctx.config.baseUrl, options.resource, scopes, err.message);
      if (err.limits) challenge.limits = err.limits;
      throw challenge;
    }
    throw err;
  }
  return admitted(ctx, request, reply, admission);
}

/**
 * admit's answer without waiting, when the kernel has one (Performer.admitNow: a request counted
 * from memory); undefined otherwise, with nothing counted: call admit.
 */
export function admitNow(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operationId: OperationId,
  options: AdmitOptions,
): Admission | undefined {
  const admission = ctx.performer.admitNow(request.actor!, operationId, options);
  return admission && admitted(ctx, request, reply, admission);
}

/** What an admission leaves on the request and the reply, and its settling when the reply closes. */
function admitted(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, admission: Admission): Admission {
  noteLimits(request, reply, admission.limits);
  // The surface's error renderer settles it before answering a failure (render.ts).
  request.admission = admission;
  if (admission.counted === 'ai' || admission.counted === 'answer') {
    reply.raw.once('close', () => {
      ctx.performer.abandon(admission).catch((err: unknown) => request.log.warn({ err }, 'giving back an unused AI answer failed; it stays counted'));
    });
  }
  return admission;
}

/**
 * Counts one request that performs no single operation (an MCP tools/list, an A2A GetTask, a
 * GraphQL document refused before it ran) and notes the limits; throws 429 when none is left.
 */
export async function countRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<LimitState> {
  const limits = await ctx.performer.countRequest(request.actor!);
  noteLimits(request, reply, limits);
  return limits;
}

/** Runs an admitted operation; a failure carries the limits then (an AI answer given back), noted on the reply. */
export async function run(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, admission: Admission, input: unknown): Promise<unknown> {
  try {
    return await ctx.performer.execute(admission, input);
  } catch (err) {
    if (err instanceof AppError) noteLimits(request, reply, err.limits);
    throw err;
  }
}

/**
 * Settles an admission now rather than when the reply closes (its call did not run, or has run),
 * so the answer's headers already show an AI answer given back; returns the limits then, as noted.
 */
export async function settle(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, admission: Admission): Promise<LimitState | null> {
  const limits = (await ctx.performer.abandon(admission)) ?? admission.limits;
  noteLimits(request, reply, limits);
  return limits;
}
