// One MCP server per HTTP request (stateless Streamable HTTP): the SDK's low-level Server with two
// handlers over the generated tools. tools/list offers what kernel/perform.ts says the caller may
// perform; tools/call runs the operation admitted for this request (./index.ts admits it before the
// SDK sees the request, so the access check and the count happen once, in the kernel) and renders
// a refusal or a failure as an `isError` tool result (MCP 2025-11-25 server/tools §Error Handling:
// tool execution errors are reported in the result, so the model can read and correct them).
import { type AuthInfo, type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { type AppError, normalizeError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { renderMcp } from '../http/render.ts';
import { createKeptResults, type KeptResult } from './kept-results.ts';
import type { ToolDef, Toolbox } from './tools.ts';

/** What ./index.ts hands the server of one request, through the SDK's pass-through AuthInfo. */
export interface McpCall {
  actor: Actor;
  /** The tools/call of this request, admitted (access checked, counted), or refused by the kernel. */
  tool: { name: string; admission: Admission } | { name: string; refusal: AppError } | null;
}

const CALL = Symbol('mcp call');

/** The AuthInfo the SDK passes through to the factory (it never reads the token itself). */
export function authInfoOf(call: McpCall): AuthInfo {
  return { token: '', clientId: call.actor.credential.id, scopes: [...call.actor.scopes], extra: { [CALL]: call } };
}

function callOf(authInfo: AuthInfo | undefined): McpCall {
  const call = authInfo?.extra?.[CALL as unknown as string] as McpCall | undefined;
  // Every request reaches the SDK through ./index.ts, which authenticated it first.
  if (!call) throw new ProtocolError(ProtocolErrorCode.InternalError, 'No authenticated caller.');
  return call;
}

export const SERVER_INFO = { name: 'council-tracker', title: 'Council Tracker', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'The public record of the Chicago City Council: legislation (matters), roll calls and votes, meetings, people and committees, campaign money and lobbying. ' +
  'Search with search_read, read records with the *_read tools, page lists with `limit` and `cursor` (meta.nextCursor); answer_question answers a question citing the records it rests on. ' +
  'Team tools appear for team credentials with the scopes and features they need.';

export function serverFactory(ctx: AppContext, toolbox: Toolbox) {
  const log = ctx.log.child({ surface: 'mcp' });
  const kept = createKeptResults(ctx.caches.publicData);
  // One validator for every per-request server (the SDK would build an Ajv instance for each);
  // these servers validate nothing with it: tool input is the catalogue's, checked by the kernel.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  /** An admitted tool call's result: kept for a `cached` operation, else made now. */
  async function resultOf(admission: Admission, tool: ToolDef, args: Record<string, unknown>): Promise<KeptResult> {
    const cached = tool.operation.cached;
    const found = cached ? kept.get(tool.name, args) : undefined;
    // A kept result runs nothing; the admission ends with the request (./index.ts).
    if (found) return found;
    const mark = kept.mark();
    const value = (await ctx.operations.execute(admission, args)) as Record<string, unknown>;
    const result = { value, text: JSON.stringify(value) };
    if (cached) kept.keep(tool.name, args, result, mark);
    return result;
  }

  return ({ authInfo }: { authInfo?: AuthInfo }): Server => {
    const call = callOf(authInfo);
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });

    server.setRequestHandler('tools/list', () => ({
      tools: toolbox.all.filter((tool) => ctx.operations.mayPerform(call.actor, tool.operation.id as never)).map((tool) => tool.listing),
    }));

    server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
      const tool = toolbox.byName(request.params.name);
      // MCP server/tools §Error Handling: an unknown tool is a protocol error (-32602).
      if (!tool || call.tool?.name !== tool.name) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      if ('refusal' in call.tool) return renderMcp(call.tool.refusal) as CallToolResult;
      try {
        const { value, text } = await resultOf(call.tool.admission, tool, request.params.arguments ?? {});
        // server/tools §Structured Content: structuredContent conforms to outputSchema, and the
        // same JSON goes in a TextContent block for clients that read only text.
        return server.projectCallToolResult({ content: [{ type: 'text', text }], structuredContent: value }, tool.listing.outputSchema);
      } catch (thrown) {
        const err = normalizeError(thrown);
        if (err.status >= 500) log.error({ err: thrown, tool: tool.name }, 'tool call failed');
        return renderMcp(err) as CallToolResult;
      }
    });
    return server;
  };
}
