// One JSON-RPC call at /a2a, handed to the SDK's transport handlers: v1.0 method names
// (SendMessage, GetTask, …) to JsonRpcTransportHandler, v0.3 names (message/send, tasks/get, …)
// to the SDK's v0.3 compatibility handler, both over the same DefaultRequestHandler and task
// store. Before the SDK sees a call, the gates run here, once, through the HTTP surfaces' one
// admission (surfaces/http/admit.ts): every call is admitted as the agent's operation,
// `answers.create` (its access checked, a missing scope challenged with its own scopes); a message
// is a question and counts an AI answer (the executor runs the admission), any other call (GetTask,
// CancelTask) counts as one request.
import { JsonRpcTransportHandler, type A2ARequestHandler, ServerCallContext, type User } from '@a2a-js/sdk/server';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { formatSSEEvent, formatSSEErrorEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { admit, settle } from '../http/admit.ts';
import { ADMISSION } from './executor.ts';
import { checkParams, paramsProblem, type RpcBody } from './params.ts';

/** The operation every call of the agent is admitted as: its scopes are the agent's (the card, the challenge). */
export const AGENT_OPERATION = 'answers.create';

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

export function rpcHandler(ctx: AppContext, requestHandler: A2ARequestHandler) {
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const v03 = new LegacyJsonRpcTransportHandler(requestHandler);
  const call = Object.freeze({ surface: 'a2a' as const });

  return async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const body = (request.body ?? null) as RpcBody | null;
    const method = body && typeof body === 'object' && typeof body.method === 'string' ? body.method : '';
    checkParams(body);
    const problem = paramsProblem(method, body?.params);
    const question = questionMethods.has(method) && problem === null;
    // Only a question is run (by the executor) and uses an AI answer; another call counts one request.
    const admission = await admit(ctx, request, reply, AGENT_OPERATION, {
      call,
      resource: 'a2a',
      ...(question ? {} : { beforeLimits: async () => 'data' as const }),
    });
    // A call the SDK throws on before it ran gives its AI answer back before the error is answered
    // (the admission is the request's: surfaces/http/render.ts settles it); the limit headers are on
    // the reply already.
    const legacy = isLegacyJsonRpcMethod(method);
    if (problem !== null) {
      // JSON-RPC 2.0 §5.1 -32602, in the SDK's own error shape for the method's version.
      const refused = new RequestMalformedError(problem);
      const error = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(refused) : JsonRpcTransportHandler.mapToJSONRPCError(refused);
      return reply.type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id: body?.id ?? null, error });
    }
    const context = new ServerCallContext({
      user: new CredentialOwner(request.actor!),
      requestedVersion: legacy ? '0.3' : '1.0',
      state: new Map<string, unknown>(question ? [[ADMISSION, admission]] : []),
    });
    const result = await (legacy ? v03 : v1).handle(body as Record<string, unknown>, context);
    if (result && typeof result === 'object' && Symbol.asyncIterator in result) return stream(request, reply, result, { admission, legacy });
    // A message the SDK refused before the executor ran made no answer: its AI answer goes back,
    // and the headers say so (a message answered meanwhile keeps it).
    await settle(ctx, request, reply, admission);
    return reply.type('application/json; charset=utf-8').send(result);
  };

  async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    events: AsyncGenerator<unknown>,
    { admission, legacy }: { admission: Admission; legacy: boolean },
  ) {
    const iterator = events[Symbol.asyncIterator]();
    const id = (request.body as RpcBody | null)?.id ?? null;
    const rpcError = (err: unknown) => (legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err) : JsonRpcTransportHandler.mapToJSONRPCError(err));
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (err) {
      // Refused before the stream began (an unknown task, bad params): a JSON-RPC error, not a stream.
      await settle(ctx, request, reply, admission);
      return reply.send({ jsonrpc: '2.0', id, error: rpcError(err) });
    }
    reply.hijack();
    const raw = reply.raw;
    // The admission settles when the stream closes (surfaces/http/admit.ts). Written by hand, the
    // stream still carries the headers the reply has been given (the request id, the limits).
    raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...SSE_HEADERS });
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
      if (!raw.writableEnded) raw.end();
    }
    return reply;
  }
}
