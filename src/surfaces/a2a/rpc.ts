// One JSON-RPC call at /a2a, handed to the SDK's transport handlers: v1.0 method names
// (SendMessage, GetTask, …) to JsonRpcTransportHandler, v0.3 names (message/send, tasks/get, …)
// to the SDK's v0.3 compatibility handler, both over the same DefaultRequestHandler and task
// store. Before the SDK sees a call, the gates run here, once: a message is a question, so the
// `answers.create` operation is admitted (public.ai checked, an AI answer counted; the executor
// runs it); any other call needs public.ai too and counts as one request.
import { JsonRpcTransportHandler, type A2ARequestHandler, ServerCallContext, type User } from '@a2a-js/sdk/server';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { formatSSEEvent, formatSSEErrorEvent, SSE_HEADERS } from '@a2a-js/sdk';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { limitHeaders, type LimitState } from '../../kernel/limit-state.ts';
import type { Admission } from '../../kernel/perform.ts';
import { insufficientScopeError } from '../../modules/credentials/index.ts';
import { ADMISSION } from './executor.ts';

/** The methods that send a message: each is a question, and uses an AI answer. */
const questionMethods = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/** The caller as the SDK's stores see it: tasks are kept per owner (the credential's account or team). */
export class CredentialOwner implements User {
  readonly actor: Actor;
  constructor(actor: Actor) {
    this.actor = actor;
  }
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return `${this.actor.limitsOwner.type}:${this.actor.limitsOwner.id}`;
  }
}

/** The owner a store scopes by; a call without an authenticated owner never reaches a store. */
export function ownerOf(context: ServerCallContext): string {
  const user = context.user;
  if (!(user instanceof CredentialOwner)) throw new AppError('unauthorized', 'No credential.');
  return user.userName;
}

interface RpcBody {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Ids a client may choose (a new task's context, a follow-up's task) fit the task store's columns. */
const MAX_ID = 36;

/**
 * What the SDK would pass on to the database unchecked: a NUL (PostgreSQL text refuses it), an id
 * longer than the store's columns, a tenant (the agent serves one council: a tenant would only
 * split the caller's own tasks). Refused here with 400, before anything is counted as an answer.
 */
function checkParams(body: RpcBody | null): void {
  if (JSON.stringify(body)?.includes('\\u0000')) throw new AppError('invalid_request', 'The request contains a NUL character.');
  const params = body && typeof body === 'object' && body.params && typeof body.params === 'object' ? (body.params as Record<string, any>) : null;
  if (!params) return;
  if (params.tenant !== undefined && params.tenant !== '') throw new AppError('invalid_request', 'This agent has no tenants: leave params.tenant out.');
  const m = params.message && typeof params.message === 'object' ? params.message : null;
  const ids = [m?.contextId, m?.taskId, ...(Array.isArray(m?.referenceTaskIds) ? m.referenceTaskIds : [])];
  if (ids.some((id) => typeof id === 'string' && id.length > MAX_ID)) {
    throw new AppError('invalid_request', `A task or context id is at most ${MAX_ID} characters (the ids this agent issues are UUIDs).`);
  }
}

export function rpcHandler(ctx: AppContext, requestHandler: A2ARequestHandler) {
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const v03 = new LegacyJsonRpcTransportHandler(requestHandler);
  const call = Object.freeze({ surface: 'a2a' as const });

  /** Gate 2 and the limits for this call; a missing scope is the RFC 6750 insufficient_scope challenge. */
  async function admit(actor: Actor, method: string): Promise<{ admission: Admission | null; limits: LimitState }> {
    try {
      if (questionMethods.has(method)) {
        const admission = await ctx.operations.admit(actor, 'answers.create', { call });
        return { admission, limits: admission.limits! };
      }
      if (!ctx.operations.mayPerform(actor, 'answers.create')) {
        const refused = insufficientScopeError(ctx.config.baseUrl, 'a2a', ['public.ai'], 'The A2A agent needs the public.ai scope.');
        refused.limits = await ctx.operations.countRefusal(actor);
        throw refused;
      }
      // Not an operation of the catalogue, but a request: counted like one (a refusal's count).
      return { admission: null, limits: await ctx.operations.countRefusal(actor) };
    } catch (err) {
      if (err instanceof AppError && err.code === 'scope_missing' && !err.headers['WWW-Authenticate']) {
        const challenge = insufficientScopeError(ctx.config.baseUrl, 'a2a', ['public.ai'], err.message);
        if (err.limits) challenge.limits = err.limits;
        throw challenge;
      }
      throw err;
    }
  }

  return async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const body = (request.body ?? null) as RpcBody | null;
    const method = body && typeof body === 'object' && typeof body.method === 'string' ? body.method : '';
    checkParams(body);
    const { admission, limits } = await admit(request.actor!, method);
    const legacy = isLegacyJsonRpcMethod(method);
    const context = new ServerCallContext({
      user: new CredentialOwner(request.actor!),
      requestedVersion: legacy ? '0.3' : '1.0',
      state: new Map<string, unknown>([[ADMISSION, admission]]),
    });
    let result: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
    try {
      result = await (legacy ? v03 : v1).handle(body as Record<string, unknown>, context);
    } catch (err) {
      if (admission) await ctx.operations.abandon(admission);
      throw err;
    }
    if (result && typeof result === 'object' && Symbol.asyncIterator in result) return stream(request, reply, result, { admission, limits, legacy });
    // A message the SDK refused before the executor ran made no answer: its AI answer goes back.
    const settled = admission ? ((await ctx.operations.abandon(admission)) ?? limits) : limits;
    return reply.headers(limitHeaders(settled)).type('application/json; charset=utf-8').send(result);
  };

  async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    events: AsyncGenerator<unknown>,
    { admission, limits, legacy }: { admission: Admission | null; limits: LimitState; legacy: boolean },
  ) {
    const iterator = events[Symbol.asyncIterator]();
    const id = (request.body as RpcBody | null)?.id ?? null;
    const rpcError = (err: unknown) => (legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err) : JsonRpcTransportHandler.mapToJSONRPCError(err));
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (err) {
      // Refused before the stream began (an unknown task, bad params): a JSON-RPC error, not a stream.
      if (admission) await ctx.operations.abandon(admission);
      return reply.headers(limitHeaders(limits)).send({ jsonrpc: '2.0', id, error: rpcError(err) });
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...SSE_HEADERS, ...limitHeaders(limits), 'X-Request-Id': request.id });
    // A comment first: the headers leave at once, and proxies see a live stream.
    raw.write(': council tracker answers\n\n');
    let closed = false;
    raw.on('close', () => {
      closed = true;
    });
    try {
      if (!first.done) raw.write(formatSSEEvent(first.value));
      for (;;) {
        if (closed) break;
        const next = await iterator.next();
        if (next.done) break;
        raw.write(formatSSEEvent(next.value));
      }
    } catch (err) {
      request.log.warn({ err }, 'A2A stream failed');
      if (!closed) raw.write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: rpcError(err) }));
    } finally {
      if (admission) await ctx.operations.abandon(admission).catch(() => null);
      if (!raw.writableEnded) raw.end();
    }
    return reply;
  }
}
