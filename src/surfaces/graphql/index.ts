// GraphQL at /api/graphql (mercurius, JIT on): the public record as a graph, POST and GET (GET for
// queries only). The same gates as the JSON API: a Bearer credential is checked on request
// (modules/credentials builds the Actor; without one, 401 with the RFC 6750/9728 challenge of
// /api), and the request is counted once against the limits before its document is read, whatever
// happens next; each field performs its operation through kernel/perform.ts with `count: false`
// (the access check runs there), and each `answer` field counts one AI answer more. Introspection
// is open to any valid credential. Documents are parsed, validated (depth, cost: ./cost.ts) and
// JIT-compiled once and kept (mercurius's query cache).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type LimitState, setLimitHeaders } from '../../kernel/limit-state.ts';
import { authenticateRequests } from '../http/guard.ts';
import { countedError, sendError } from '../http/render.ts';
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
  const gql: GraphQLContext = {
    actor,
    batches: new Batches(perform),
    perform,
    limits: request.limitState ?? null,
    async answer(input) {
      const note = (limits: LimitState | undefined | null) => {
        if (!limits) return;
        gql.limits = limits;
        setLimitHeaders(reply, limits);
      };
      try {
        const { result, limits } = await ctx.operations.perform(actor, 'answers.create', input, { call, beforeLimits: async () => 'answer' });
        note(limits);
        return result;
      } catch (err) {
        if (err instanceof AppError) note(err.limits);
        throw err;
      }
    },
  };
  return gql;
}

/** The query text of a request, POST body or GET parameter. */
function queryText(request: FastifyRequest): unknown {
  const source = (request.method === 'GET' ? request.query : request.body) as { query?: unknown } | null | undefined;
  return source && typeof source === 'object' ? source.query : undefined;
}

export function graphqlSurface(ctx: AppContext) {
  return async function graphql(app: FastifyInstance): Promise<void> {
    authenticateRequests(app, ctx, { name: 'graphql', surface: 'api', allowApiKeyHeader: false });
    // One count per HTTP request, before its document is read (refusals count as well).
    app.addHook('preHandler', async (request, reply) => {
      const limits = await ctx.operations.countRequest(request.actor!);
      request.limitState = limits;
      setLimitHeaders(reply, limits);
      const query = queryText(request);
      if (typeof query === 'string' && query.length > MAX_QUERY) {
        throw new AppError('invalid_request', `The query is ${query.length} characters long; at most ${MAX_QUERY}.`);
      }
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
        return sendError(reply, counted.err, (e) => ({ errors: e === err ? errors : [{ message: e.message, extensions: { code: e.code, status: e.status } }] }), counted.limits);
      },
    });
    app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
      checkCost(schema, document, variables as Record<string, unknown> | undefined, (context as { __operationName?: string }).__operationName);
    });
  };
}
