// The methods MCP clients use beside tools, as rows of the server's method table (./server.ts):
// resources (MCP 2025-11-25 server/resources), prompts (server/prompts) and completion
// (server/utilities/completion). Each one that reads the record admits one catalogue operation as
// tools/call does (surfaces/http/admit.ts: the access check, one request against the limits); a
// request refused before that is counted as one request. A refusal the client must act on (a
// missing scope, the limits) is the HTTP answer; bad params are -32602 and an unknown resource
// -32002, as the specification says.
import { ProtocolError } from '@modelcontextprotocol/server';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError, normalizeError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { admit, countRequest } from '../http/admit.ts';
import { getPrompt, type PromptDef, promptDefs } from './prompts.ts';
import { createResources, matchUri, resourceNotFound, TEMPLATES, type TemplateDef } from './resources.ts';
import { answeredByHttp, type Exchange, invalidParams, type Method } from './server.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function createCatalogueExtras(ctx: AppContext, eras: Method['eras']): Record<string, Method> {
  const resources = createResources(ctx);
  const prompts = promptDefs(ctx);
  const call = Object.freeze({ surface: 'mcp' as const });

  /** Admits the operation and runs `then`; an operation's refusal or failure in the protocol's words. */
  async function admitted<T>({ http, reply }: Exchange, id: OperationId, then: (a: Admission) => Promise<T>, notFound: () => Error): Promise<T> {
    try {
      return await then(await admit(ctx, http, reply, id as never, { call, resource: 'mcp' }));
    } catch (thrown) {
      if (thrown instanceof ProtocolError) throw thrown;
      const err = normalizeError(thrown);
      if (answeredByHttp(err)) throw err;
      if (err.code === 'not_found') throw notFound();
      throw invalidParams(err.message);
    }
  }

  /** A request refused before any operation is admitted still counts once. */
  async function refuse(exchange: Exchange, error: Error): Promise<never> {
    await countRequest(ctx, exchange.http, exchange.reply);
    throw error;
  }

  const mayRead = (exchange: Exchange, id: OperationId) => ctx.performer.mayPerform(exchange.http.actor!, id as never);

  return {
    'resources/list': {
      eras,
      admits: true,
      handle: (exchange) =>
        admitted(
          exchange,
          'bodies.list',
          (a) => resources.list(a),
          () => invalidParams('No bodies.'),
        ),
    },
    'resources/templates/list': {
      eras,
      handle: async (exchange) => ({
        resourceTemplates: TEMPLATES.filter((t) => mayRead(exchange, t.operation)).map((t) => ({
          uriTemplate: t.uriTemplate,
          name: t.name,
          title: t.title,
          description: t.description,
          mimeType: 'application/json',
        })),
      }),
    },
    'resources/read': {
      eras,
      admits: true,
      async handle(exchange) {
        const uri = exchange.request.params.uri;
        if (typeof uri !== 'string') return refuse(exchange, invalidParams('Invalid resources/read request: params.uri must be a string.'));
        const found = matchUri(uri);
        if (!found) return refuse(exchange, resourceNotFound(uri));
        return admitted(
          exchange,
          found.def.operation,
          (a) => resources.read(a, found.def, found.value, uri),
          () => resourceNotFound(uri),
        );
      },
    },
    'prompts/list': {
      eras,
      handle: async (exchange) => ({
        prompts: prompts
          .filter((p) => mayRead(exchange, p.operation))
          .map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments.map(({ completes: _, ...a }) => a) })),
      }),
    },
    'prompts/get': {
      eras,
      admits: true,
      async handle(exchange) {
        const { name, arguments: args = {} } = exchange.request.params;
        const def = prompts.find((p) => p.name === name);
        if (!def) return refuse(exchange, invalidParams(`Unknown prompt: ${String(name)}`));
        if (!isObject(args) || !Object.values(args).every((v) => typeof v === 'string'))
          return refuse(exchange, invalidParams('Invalid prompts/get request: params.arguments must map names to strings.'));
        // The arguments are checked before anything is admitted (server/prompts §Error Handling: -32602).
        try {
          def.input(args as Record<string, string>);
        } catch (err) {
          return refuse(exchange, invalidParams(err instanceof AppError ? err.message : 'Invalid prompt arguments.'));
        }
        return admitted(
          exchange,
          def.operation,
          (a) => getPrompt(ctx, def, a, exchange.http.actor!, args as Record<string, string>),
          () => invalidParams('The prompt’s record was not found.'),
        );
      },
    },
    'completion/complete': {
      eras,
      admits: true,
      async handle(exchange) {
        const { ref, argument } = exchange.request.params;
        if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string')
          return refuse(exchange, invalidParams('Invalid completion/complete request: params need ref and argument { name, value }.'));
        const searchType = completing(ref, argument.name, prompts);
        if (searchType === undefined) return refuse(exchange, invalidParams(`Nothing to complete for ${JSON.stringify(ref)} ${argument.name}.`));
        const done = (values: string[]) => ({ completion: { values, total: values.length, hasMore: false } });
        if (searchType === null) {
          await countRequest(ctx, exchange.http, exchange.reply);
          return done([]);
        }
        return admitted(
          exchange,
          'search.read',
          async (a) => done(await resources.complete(a, searchType, argument.value as string)),
          () => invalidParams('Nothing found.'),
        );
      },
    },
  };
}

/**
 * What completes an argument: the search type of a template's variable or a prompt's argument;
 * null for an argument completed by nothing (a ward number); undefined for no such ref or argument.
 */
function completing(ref: Record<string, unknown>, argument: string, prompts: readonly PromptDef[]): TemplateDef['searchType'] | null | undefined {
  if (ref.type === 'ref/resource') {
    const def = TEMPLATES.find((t) => t.uriTemplate === ref.uri);
    return def && def.param === argument ? def.searchType : undefined;
  }
  if (ref.type === 'ref/prompt') {
    const arg = prompts.find((p) => p.name === ref.name)?.arguments.find((a) => a.name === argument);
    return arg ? (arg.completes ?? null) : undefined;
  }
  return undefined;
}
