// GraphQL at /api/graphql (mercurius, JIT on): the public record as a graph, POST and GET (GET for
// queries only). The same gates as the JSON API: a Bearer credential is checked on request
// (modules/credentials builds the Actor; without one, 401 with the RFC 6750/9728 challenge of
// /api), and the request is counted once against the limits before its document is read, whatever
// happens next; each field performs its operation through kernel/perform.ts with `count: false`
// (the access check runs there), and each `answer` field counts one AI answer more. Introspection
// is open to any valid credential. Documents are parsed, validated (depth, cost: ./cost.ts) and
// JIT-compiled once and kept (mercurius's query cache).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Location, parse } from 'graphql';
import mercurius from 'mercurius';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { admit, countRequest, noteLimits } from '../http/admit.ts';
import { authenticateRequests } from '../http/guard.ts';
import { countedError, renderGraphQL, sendError } from '../http/render.ts';
import { Batches } from './batch.ts';
import { checkCost, MAX_DEPTH } from './cost.ts';
import { formatExecution, requestError } from './errors.ts';
import { type GraphQLContext, resolvers } from './resolvers.ts';
import { typeDefs } from './schema.ts';

export const GRAPHQL_PATH = '/api/graphql';
/** Longer than any query a client needs; the parser also stops after MAX_TOKENS tokens. */
export const MAX_QUERY = 20_000;
const MAX_TOKENS = 5_000;
/** Compiled (JIT) and parsed documents kept. */
const KEPT_DOCUMENTS = 1_000;

const call = Object.freeze({ surface: 'graphql' as const });

function contextOf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): GraphQLContext {
  const actor = request.actor!;
  const perform = async (id: OperationId, input: Record<string, unknown>) => (await ctx.operations.perform(actor, id, input, { call, count: false })).result;
  return {
    actor,
    batches: new Batches(perform),
    perform,
    async answer(input) {
      // One AI answer more (the request is counted already); the headers show the latest limits.
      const admission = await admit(ctx, request, reply, 'answers.create', { call, resource: 'api', beforeLimits: async () => 'answer' });
      try {
        return await ctx.operations.execute(admission, input);
      } catch (err) {
        if (err instanceof AppError) noteLimits(request, reply, err.limits);
        throw err;
      }
    },
  };
}

/**
 * The GraphQL-over-HTTP request (GraphQL over HTTP §5.1, "Request Parameters"): a JSON object
 * whose `query` is a string, `variables` an object and `operationName` a string, when given.
 */
function checkRequest(request: FastifyRequest): void {
  const source = request.method === 'GET' ? request.query : request.body;
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    throw new AppError('invalid_request', 'A GraphQL request is one JSON object: { "query": "…", "variables": { … }, "operationName": "…" }.');
  }
  const { query, variables, operationName } = source as Record<string, unknown>;
  if (query !== undefined && typeof query !== 'string') throw new AppError('invalid_request', 'The query must be a string of GraphQL.');
  if (typeof query === 'string' && query.length > MAX_QUERY)
    throw new AppError('invalid_request', `The query is ${query.length} characters long; at most ${MAX_QUERY}.`);
  if (request.method !== 'GET' && variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new AppError('invalid_request', 'The variables must be a JSON object.');
  }
  if (operationName != null && typeof operationName !== 'string') throw new AppError('invalid_request', 'The operationName must be a string.');
}

export function graphqlSurface(ctx: AppContext) {
  return async function graphql(app: FastifyInstance): Promise<void> {
    authenticateRequests(app, ctx, { name: 'graphql', surface: 'api', allowApiKeyHeader: false });
    // One count per HTTP request, before its document is read (refusals count as well).
    app.addHook('preHandler', async (request, reply) => {
      await countRequest(ctx, request, reply);
      checkRequest(request);
    });
    await app.register(mercurius, {
      schema: typeDefs,
      resolvers: resolvers as never,
      path: GRAPHQL_PATH,
      // Compile a document to JavaScript on its second use (graphql-jit).
      jit: 1,
      cache: KEPT_DOCUMENTS,
      queryDepth: MAX_DEPTH,
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      graphiql: false,
      ide: false,
      allowBatchedQueries: false,
      // Off (the default), stated: credentials travel only in the Authorization header, never in
      // cookies, so a cross-site request carries none and mercurius's CSRF headers add nothing.
      csrfPrevention: false,
      context: (request: FastifyRequest, reply: FastifyReply) => contextOf(ctx, request, reply),
      errorFormatter: (execution, context) => formatExecution(execution as never, (context as { reply?: FastifyReply }).reply) as never,
      errorHandler: async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
        const { err, errors } = requestError(error);
        if (err.status >= 500) request.log.error({ err: error }, 'GraphQL request failed');
        const counted = await countedError(ctx, request, err);
        // Counting may itself refuse (429): that refusal is the answer then.
        return sendError(reply, counted.err, (e) => (e === err ? { errors } : renderGraphQL(e)), counted.limits);
      },
    });
    // Mercurius reads a query that is not GraphQL as a JSON-encoded syntax tree; this service takes
    // GraphQL text only (GraphQL over HTTP §5.1: `query` is a GraphQL document's source text), so a
    // document the GraphQL parser did not make (its `loc` is a parser Location) is refused with the
    // parser's own words.
    app.graphql.addHook('preValidation', async (_schema, document, context) => {
      if ((document as { loc?: unknown }).loc instanceof Location) return;
      const source = (context as { __currentQuery?: unknown }).__currentQuery;
      try {
        parse(String(source));
      } catch (err) {
        throw new AppError('invalid_request', (err as Error).message);
      }
      throw new AppError('invalid_request', 'The query must be GraphQL text.');
    });
    app.graphql.addHook('preExecution', async (schema, document, _context, variables) => {
      // Every operation of the document is counted: the hook is not told which one runs.
      checkCost(schema, document, variables as Record<string, unknown> | undefined);
    });
  };
}
