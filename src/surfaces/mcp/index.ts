// The MCP server at /mcp: Streamable HTTP (MCP 2025-11-25 basic/transports §Streamable HTTP, and
// the 2026-07-28 per-request revision), stateless: one JSON-RPC message per POST, answered as one
// JSON object; no session is kept or shared between instances. The server is built once
// (./server.ts) and each POST is read (./wire.ts), answered and written here. The gates run once:
//   1. Origin and Host are checked against DNS rebinding (basic/transports §Security Warning).
//   2. The credential makes the Actor, as on the API (surfaces/http/guard.ts): Bearer API keys and
//      OAuth access tokens; without one, 401 with the RFC 6750/9728 challenge for /mcp
//      (basic/authorization §Authorization Server Discovery).
//   3. The request is counted once: a tools/call by admitting its operation (surfaces/http/admit.ts),
//      anything else as one request. Refusals of the HTTP layer render as JSON-RPC errors (render.ts).
import { ProtocolError, type RequestId, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { countRequest } from '../http/admit.ts';
import { authenticateRequests } from '../http/guard.ts';
import { servedHostnames } from '../http/host-names.ts';
import { renderJsonRpc, useRenderer } from '../http/render.ts';
import { createMcpServer } from './server.ts';
import { errorMessage, errorStatus, type Inbound, readInbound } from './wire.ts';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export function mcpSurface(ctx: AppContext) {
  const server = createMcpServer(ctx);
  const hostnames = servedHostnames(ctx.config.baseUrl);

  // The Host check's answer per Host value: a server is reached under a few names, and reading each
  // as a URL cost 3.4 µs of every request (issue 23). Only the first 100 values are kept.
  const hostChecks = new Map<string | undefined, ReturnType<typeof validateHostHeader>>();
  function checkedHost(value: string | undefined): ReturnType<typeof validateHostHeader> {
    let checked = hostChecks.get(value);
    if (!checked) {
      checked = validateHostHeader(value, hostnames);
      if (hostChecks.size < 100) hostChecks.set(value, checked);
    }
    return checked;
  }

  /** Gate 1: basic/transports §Security Warning — servers MUST validate Origin; Host guards local binds. */
  function originRefusal(request: FastifyRequest): AppError | undefined {
    const host = checkedHost(request.headers.host);
    if (!host.ok) return new AppError('forbidden', `The Host header names a host this server does not serve (${host.message}).`);
    const origin = request.headers.origin;
    const checked = validateOriginHeader(typeof origin === 'string' ? origin : undefined, hostnames);
    if (!checked.ok) return new AppError('forbidden', `Requests from the origin ${String(origin)} are not accepted.`);
    return undefined;
  }
  /** The check as an onRequest hook that goes on in the same turn (no promise). */
  const checkOrigin = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => done(originRefusal(request));

  /** One JSON-RPC message, as JSON text; an answer about this caller, never kept by a shared cache. */
  const send = (reply: FastifyReply, status: number, json: string) =>
    reply.status(status).header('Cache-Control', 'private, no-store').type('application/json; charset=utf-8').send(json);

  /** The JSON-RPC response carrying a result: an object, or a result already written (a tool's, kept or made now). */
  const respond = (reply: FastifyReply, id: RequestId, result: Record<string, unknown> | string) =>
    send(reply, 200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${typeof result === 'string' ? result : JSON.stringify(result)}}`);

  /**
   * A callback handler: a kept tool result whose call is admitted from memory (the common read) is
   * answered in the same turn, with no promise to settle, as the REST routes answer their kept
   * answers (issue 23); anything else is answered by `answer`.
   */
  function post(request: FastifyRequest, reply: FastifyReply) {
    // One message per POST (basic/transports §Sending Messages: 2025-06-18 removed batching), so
    // one HTTP request is one thing done and counted once.
    if (Array.isArray(request.body)) throw new AppError('invalid_request', 'Send one JSON-RPC message per request; batches are not accepted.');
    const inbound = readInbound(request.body, {
      accept: header(request, 'accept'),
      protocolVersion: header(request, 'mcp-protocol-version'),
      method: header(request, 'mcp-method'),
      name: header(request, 'mcp-name'),
    });
    if (inbound.kind === 'request') {
      const now = server.answerNow({ request: inbound.request, http: request, reply });
      if (now !== undefined) return respond(reply, inbound.request.id, now);
    }
    return answer(request, reply, inbound);
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, inbound: Inbound) {
    if (inbound.kind !== 'request') {
      await countRequest(ctx, request, reply);
      return inbound.kind === 'accepted'
        ? reply.status(202).header('Cache-Control', 'private, no-store').send()
        : send(reply, inbound.status, JSON.stringify(inbound.message));
    }
    const mcp = inbound.request;
    try {
      return respond(reply, mcp.id, await server.answer({ request: mcp, http: request, reply }));
    } catch (thrown) {
      // A refusal of the HTTP layer (401, 403, 429) is answered by the surface's error renderer.
      if (!(thrown instanceof ProtocolError)) throw thrown;
      return send(reply, errorStatus(mcp, thrown.code), JSON.stringify(errorMessage(mcp.id, thrown.code, thrown.message, thrown.data)));
    }
  }

  // The 2025 session operations (a GET stream, a DELETE ending a session) have no meaning on a
  // stateless server: 405, naming the method that is allowed (RFC 9110 §15.5.6).
  async function notAllowed(request: FastifyRequest) {
    throw new AppError('method_not_allowed', `${request.method} is not served: this MCP server is stateless; send each message with POST.`, {
      Allow: 'POST',
    });
  }

  return async function mcp(app: FastifyInstance): Promise<void> {
    await app.register(
      async (scope) => {
        // JSON only: any other Content-Type is 415 (basic/transports: messages are JSON-RPC in JSON).
        scope.removeContentTypeParser('text/plain');
        useRenderer(scope, ctx, renderJsonRpc);
        scope.addHook('onRequest', checkOrigin);
        authenticateRequests(scope, ctx, { name: 'mcp', surface: 'mcp', allowApiKeyHeader: false });
        scope.post('/', post);
        scope.get('/', notAllowed);
        scope.delete('/', notAllowed);
      },
      { prefix: '/mcp' },
    );
  };
}
