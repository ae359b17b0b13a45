// The MCP server, built once when the service starts: a table of the methods it answers, each a
// function of one request (stateless, so nothing is kept between requests, and no server object
// is made per request). tools/list offers what kernel/perform.ts says the caller may perform;
// tools/call admits the tool's operation through the HTTP surfaces' one admission
// (surfaces/http/admit.ts) and runs it, rendering a refusal or a failure of the operation as an
// `isError` tool result (MCP 2025-11-25 server/tools §Error Handling: tool execution errors are
// reported in the result, so the model can read and correct them). A refusal the client must act
// on (a missing scope: 403 with its challenge; the limits: 429) is the HTTP answer instead.
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { type AppError, normalizeError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { admit, admitNow, countRequest, run } from '../http/admit.ts';
import { renderMcp } from '../http/render.ts';
import { createKeptResults, type KeptResult } from './kept-results.ts';
import { createCatalogueExtras } from './extras.ts';
import { createToolbox, type ToolDef } from './tools.ts';
import { encodeResult, endWrittenResult, type McpRequest, MODERN_VERSIONS, negotiatedVersion, openToolResult, type ServerInfo, WrittenResult } from './wire.ts';

export const SERVER_INFO: ServerInfo = { name: 'council-tracker', title: 'Council Tracker', version: '1.0.0' };

const INSTRUCTIONS =
  'The public record of the Chicago City Council: legislation (matters), roll calls and votes, meetings, people and committees, campaign money and lobbying. ' +
  'Search with search_read, read records with the *_read tools, page lists with `limit` and `cursor` (meta.nextCursor); answer_question answers a question citing the records it rests on. ' +
  'Records are also resources (council://matters/{record}, council://people/{id}, council://meetings/{id}, council://bodies/{id}: JSON and the Markdown page), and prompts brief on a bill, an alderperson’s votes this year and the next agenda. ' +
  'Team tools appear for team credentials with the scopes and features they need.';

/**
 * What the server declares (2025-11-25 basic/lifecycle §Capability Negotiation; 2026-07-28
 * server/discover): tools, resources (no subscriptions: a stateless server keeps none), prompts and
 * completion of their arguments.
 */
const CAPABILITIES = { tools: {}, resources: {}, prompts: {}, completions: {} };

/** One request being answered: the message and the HTTP exchange it came in (for the admission). */
export interface Exchange {
  request: McpRequest;
  http: FastifyRequest;
  reply: FastifyReply;
}

type Handler = (exchange: Exchange) => Promise<Record<string, unknown> | WrittenResult>;

export interface Method {
  /** Which eras have the method (2026-07-28 removed initialize and ping; server/discover is new). */
  eras: readonly ('legacy' | 'modern')[];
  /** The method admits an operation, which counts the request; any other is counted as one request. */
  admits?: boolean;
  handle: Handler;
}

const both = ['legacy', 'modern'] as const;

/** -32602 with a plain message (JSON-RPC §5.1): params the method cannot use. */
export const invalidParams = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The refusals the client must act on are the HTTP answer; the others a tool result the model reads. */
export const answeredByHttp = (err: AppError) => err.code === 'scope_missing' || err.status === 401 || err.status === 429 || err.status >= 500;

export interface McpServer {
  readonly info: ServerInfo;
  /** The result of a request (an object, or JSON already written), or a ProtocolError; an AppError thrown is the HTTP answer. */
  answer(exchange: Exchange): Promise<Record<string, unknown> | string>;
  /**
   * The result without waiting, when the request is a tools/call with a kept result and the call
   * is admitted from memory (kernel/perform.ts admitNow); undefined otherwise, with nothing
   * counted: call answer.
   */
  answerNow(exchange: Exchange): string | undefined;
}

export function createMcpServer(ctx: AppContext): McpServer {
  const log = ctx.log.child({ surface: 'mcp' });
  const toolbox = createToolbox(ctx.performer.all());
  const kept = createKeptResults(ctx.caches.publicData);
  const call = Object.freeze({ surface: 'mcp' as const });

  /** An admitted tool call's result, written: kept for a `cached` operation, else made now. */
  async function resultOf({ http, reply }: Exchange, admission: Admission, tool: ToolDef, args: Record<string, unknown>): Promise<KeptResult> {
    const cached = tool.operation.cached;
    const found = cached ? kept.get(tool.name, args) : undefined;
    // A kept result runs nothing; the admission (counted already) ends with the request.
    if (found) return found;
    const mark = kept.mark();
    const result = { json: openToolResult(await run(ctx, http, reply, admission, args)) };
    if (cached) kept.keep(tool.name, args, result, mark);
    return result;
  }

  /** tools/call (server/tools §Calling Tools): the tool's operation, admitted once and run. */
  async function callTool(exchange: Exchange): Promise<CallToolResult | WrittenResult> {
    const { request, http, reply } = exchange;
    const { name, arguments: args = {} } = request.params;
    if (typeof name !== 'string') throw invalidParams('Invalid tools/call request: params.name must be the name of a tool.');
    if (!isObject(args)) throw invalidParams('Invalid tools/call request: params.arguments must be an object.');
    const tool = toolbox.byName(name);
    if (!tool) {
      await countRequest(ctx, http, reply);
      // server/tools §Error Handling: an unknown tool is a protocol error.
      throw invalidParams(`Unknown tool: ${name}`);
    }
    let admission: Admission;
    try {
      admission = await admit(ctx, http, reply, tool.operation.id as never, { call, resource: 'mcp' });
    } catch (thrown) {
      const err = normalizeError(thrown);
      if (answeredByHttp(err)) throw err;
      return renderMcp(err) as CallToolResult;
    }
    try {
      // server/tools §Structured Content: structuredContent conforms to outputSchema (the
      // operation's output schema, which its result is serialized through), and the same JSON
      // goes in a TextContent block for clients that read only text (./wire.ts openToolResult).
      return new WrittenResult((await resultOf(exchange, admission, tool, args)).json);
    } catch (thrown) {
      const err = normalizeError(thrown);
      if (err.status >= 500) log.error({ err: thrown, tool: tool.name }, 'tool call failed');
      return renderMcp(err) as CallToolResult;
    }
  }

  const methods: Record<string, Method> = {
    // 2025-11-25 basic/lifecycle §Initialization: the version agreed, what the server offers.
    initialize: {
      eras: ['legacy'],
      handle: async ({ request }) => {
        const { protocolVersion, capabilities, clientInfo } = request.params;
        if (typeof protocolVersion !== 'string' || !isObject(capabilities) || !isObject(clientInfo)) {
          throw invalidParams('Invalid initialize request: params need protocolVersion (a string), capabilities and clientInfo (objects).');
        }
        return { protocolVersion: negotiatedVersion(protocolVersion), capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
      },
    },
    ping: { eras: ['legacy'], handle: async () => ({}) },
    // 2026-07-28 server/discover: the revisions served and the capabilities, in one round trip.
    'server/discover': {
      eras: ['modern'],
      handle: async () => ({ supportedVersions: [...MODERN_VERSIONS], capabilities: CAPABILITIES, instructions: INSTRUCTIONS }),
    },
    'tools/list': {
      eras: both,
      handle: async ({ http }) => ({
        tools: toolbox.all.filter((tool) => ctx.performer.mayPerform(http.actor!, tool.operation.id as never)).map((tool) => tool.listing),
      }),
    },
    'tools/call': { eras: both, admits: true, handle: (exchange) => callTool(exchange) as Promise<Record<string, unknown> | WrittenResult> },
    // Resources, prompts and completion (./extras.ts): each admits the operation it reads.
    ...createCatalogueExtras(ctx, both),
  };

  return {
    info: SERVER_INFO,
    answerNow({ request, http, reply }) {
      if (request.method !== 'tools/call') return undefined;
      const { name, arguments: args = {} } = request.params;
      const tool = typeof name === 'string' && isObject(args) ? toolbox.byName(name) : undefined;
      if (!tool?.operation.cached) return undefined;
      // The same steps as callTool's, in another order: the lookup first, so a result not kept
      // counts nothing here; then the admission, whose refusals callTool renders.
      const found = kept.get(tool.name, args);
      if (!found || !admitNow(ctx, http, reply, tool.operation.id as never, { call, resource: 'mcp' })) return undefined;
      return endWrittenResult(request, new WrittenResult(found.json), SERVER_INFO);
    },
    async answer(exchange) {
      const { request } = exchange;
      const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
      // Every HTTP request counts once: by the admission of the operation it performs, or here.
      if (!method?.admits) await countRequest(ctx, exchange.http, exchange.reply);
      if (!method?.eras.includes(request.era)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const result = await method!.handle(exchange);
      return result instanceof WrittenResult ? endWrittenResult(request, result, SERVER_INFO) : encodeResult(request, result, SERVER_INFO);
    },
  };
}
