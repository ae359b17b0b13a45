// The MCP server at /mcp: Streamable HTTP (MCP 2025-11-25 basic/transports §Streamable HTTP, and
// the 2026-07-28 per-request revision), stateless, through the official SDK's serving entry
// (createMcpHandler: a fresh server per request, no session to keep or share between instances).
// Before the SDK sees a request, the gates run here, once:
//   1. Origin and Host are checked against DNS rebinding (basic/transports §Security Warning).
//   2. The credential makes the Actor, as on the API (surfaces/http/guard.ts): Bearer API keys and
//      OAuth access tokens; without one, 401 with the RFC 6750/9728 challenge for /mcp
//      (basic/authorization §Authorization Server Discovery).
//   3. The request is counted once: a tools/call by admitting its operation (kernel/perform.ts:
//      access check and its limit class), anything else as one request.
import { createMcpHandler, type JSONRPCMessage, localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type LimitState, limitHeaders } from '../../kernel/limit-state.ts';
import { insufficientScopeError } from '../../modules/credentials/index.ts';
import { authenticateRequests } from '../http/guard.ts';
import { renderJsonRpc, useRenderer } from '../http/render.ts';
import { authInfoOf, type McpCall, serverFactory } from './server.ts';
import { createToolbox } from './tools.ts';

/** The tools/call a body holds, if it is one: the tool's name as the client sent it. */
function toolCallName(body: unknown): string | null {
  const m = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (!m || typeof m !== 'object' || m.method !== 'tools/call') return null;
  return typeof m.params?.name === 'string' ? m.params.name : '';
}

/** The headers the transport reads: content negotiation, resumption and the `Mcp-*` family. */
const transportHeader = (name: string) => name.startsWith('mcp-') || name === 'accept' || name === 'content-type' || name === 'last-event-id';

/**
 * The web-standard Request the SDK's handler takes, without a body: Fastify has parsed it already
 * and the handler is given it as `parsedBody` (the SDK's own toWebRequest would serialize it
 * again, which costs more than the rest of a kept tool call). The credential stays behind: the
 * caller is passed as the Actor, never as a header the SDK could log.
 */
function webRequestOf(request: FastifyRequest, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!transportHeader(name)) continue;
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(new URL(request.url, origin), { method: request.method, headers });
}

/**
 * Host names a request may name: the public URL's and the loopback names. A rebinding attack
 * names the attacker's host (a name that resolves to this server), never these.
 */
function allowedHostnames(baseUrl: string): string[] {
  return [...new Set([new URL(baseUrl).hostname, ...localhostAllowedHostnames()])];
}

export function mcpSurface(ctx: AppContext) {
  const toolbox = createToolbox(ctx.operations.all());
  const hostnames = allowedHostnames(ctx.config.baseUrl);
  const call = Object.freeze({ surface: 'mcp' as const });
  const handler = createMcpHandler(serverFactory(ctx, toolbox), {
    onerror: (err) => ctx.log.debug({ err }, 'MCP request refused by the SDK'),
  });

  /** Gate 1: basic/transports §Security Warning — servers MUST validate Origin; Host guards local binds. */
  async function checkOrigin(request: FastifyRequest): Promise<void> {
    const host = validateHostHeader(request.headers.host, hostnames);
    if (!host.ok) throw new AppError('forbidden', `The Host header names a host this server does not serve (${host.message}).`);
    const origin = request.headers.origin;
    const checked = validateOriginHeader(typeof origin === 'string' ? origin : undefined, hostnames);
    if (!checked.ok) throw new AppError('forbidden', `Requests from the origin ${String(origin)} are not accepted.`);
  }

  /** Gate 3 for a tools/call: admit its operation, or keep the kernel's refusal for the tool result. */
  async function admitTool(request: FastifyRequest, name: string): Promise<{ tool: McpCall['tool']; limits: LimitState }> {
    const actor = request.actor!;
    const tool = toolbox.byName(name);
    if (!tool) return { tool: null, limits: await ctx.operations.countRefusal(actor) };
    try {
      const admission = await ctx.operations.admit(actor, tool.operation.id as never, { call });
      return { tool: { name, admission }, limits: admission.limits! };
    } catch (thrown) {
      if (!(thrown instanceof AppError) || !thrown.limits) throw thrown;
      // A missing scope is HTTP 403 with the insufficient_scope challenge naming it, whatever the
      // credential (basic/authorization §Scope Challenge Handling, RFC 6750 §3.1): an OAuth client
      // can ask for a wider grant; a key's holder learns which scope a new key needs.
      if (thrown.code === 'scope_missing') {
        const challenge = insufficientScopeError(ctx.config.baseUrl, 'mcp', tool.operation.access.scopes, thrown.message);
        challenge.limits = thrown.limits;
        throw challenge;
      }
      return { tool: { name, refusal: thrown }, limits: thrown.limits };
    }
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const actor = request.actor!;
    const body = request.body as JSONRPCMessage | JSONRPCMessage[] | undefined;
    // One message per POST (basic/transports §Sending Messages: 2025-06-18 removed batching),
    // so one HTTP request is one thing done and counted once.
    if (Array.isArray(body)) throw new AppError('invalid_request', 'Send one JSON-RPC message per request; batches are not accepted.');
    const name = request.method === 'POST' ? toolCallName(body) : null;
    const admitted = name !== null ? await admitTool(request, name) : { tool: null, limits: await ctx.operations.countRefusal(actor) };
    request.limitState = admitted.limits;
    const mcpCall: McpCall = { actor, tool: admitted.tool };
    // A tools/call the SDK refused before running it (malformed params) made no AI answer.
    const admission = admitted.tool && 'admission' in admitted.tool ? admitted.tool.admission : null;
    if (admission)
      reply.raw.once(
        'close',
        () => void ctx.operations.abandon(admission).catch((err: unknown) => request.log.warn({ err }, 'giving back an unused AI answer failed')),
      );

    const response = await handler.fetch(webRequestOf(request, ctx.config.baseUrl), {
      authInfo: authInfoOf(mcpCall),
      ...(body === undefined ? {} : { parsedBody: body }),
    });
    reply.status(response.status);
    for (const [header, value] of response.headers) reply.header(header, value);
    reply.headers(limitHeaders(admitted.limits));
    if (admitted.tool && 'refusal' in admitted.tool) for (const [header, value] of Object.entries(admitted.tool.refusal.headers)) reply.header(header, value);
    reply.header('Cache-Control', 'private, no-store');
    // A JSON answer is sent as one string; an SSE answer (2025 clients) streams as the SDK writes it.
    const streamed = response.headers.get('content-type')?.startsWith('text/event-stream');
    return reply.send(streamed ? response.body : await response.text());
  }

  return async function mcp(app: FastifyInstance): Promise<void> {
    app.addHook('onClose', async () => handler.close());
    await app.register(
      async (scope) => {
        useRenderer(scope, ctx, renderJsonRpc);
        scope.addHook('onRequest', checkOrigin);
        authenticateRequests(scope, ctx, { name: 'mcp', surface: 'mcp', allowApiKeyHeader: false });
        scope.post('/', handle);
        scope.get('/', handle);
        scope.delete('/', handle);
      },
      { prefix: '/mcp' },
    );
  };
}
