// GraphQL at /api/graphql (mercurius, JIT on): the public record as a graph, POST and GET (GET for
// queries only). The same gates as the JSON API: a Bearer credential (or a signed-in session with
// its CSRF token, as GraphiQL sends it) is checked on request (modules/credentials builds the Actor;
// without one, 401 with the RFC 6750/9728 challenge of /api); a browser opening the endpoint gets
// GraphiQL instead (./explorer.ts); the request is read the same way for GET and POST (./request.ts), and a document is
// refused before it runs when its data fields nest too deep (./depth.ts) or it costs too much
// (./cost.ts); introspection is bounded on its own terms there. Every top-level
// field is admitted as its REST call is (surfaces/http/admit.ts: the access check and one request
// against the limits, `answer` one AI answer more); nested fields read within it. A request that
// admits nothing (only `__typename`, introspection, or refused before it ran) counts once.
// Documents are parsed, validated and JIT-compiled once and kept (mercurius's query cache).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Location, parse } from 'graphql';
import mercurius from 'mercurius';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { admit, countRequest, run } from '../http/admit.ts';
import { authenticateRequests, type SessionAuth } from '../http/guard.ts';
import { countedError, renderGraphQL, sendError } from '../http/render.ts';
import { sessionAuth } from '../v2/session-auth.ts';
import { Batches } from './batch.ts';
import { checkCost } from './cost.ts';
import { DataDepthRule } from './depth.ts';
import { formatExecution, requestError } from './errors.ts';
import { explorerAssets, sendExplorer, wantsExplorer } from './explorer.ts';
import { checkRequest, KEPT_DOCUMENTS, MAX_TOKENS } from './request.ts';
import { type GraphQLContext, resolvers } from './resolvers.ts';
import { typeDefs } from './schema.ts';

export const GRAPHQL_PATH = '/api/graphql';

const call = Object.freeze({ surface: 'graphql' as const });

/**
 * A signed-in person's session (the GraphQL explorer's), accepted on every method only with the
 * session's CSRF token (OWASP synchronizer token): a cookie alone, which a cross-site request
 * carries, is no credential here, so such a request is 401 and counts against no one.
 */
function sessionsWithToken(ctx: AppContext): SessionAuth {
  const sessions = sessionAuth(ctx);
  return {
    actor: (request, known) => (sessions.csrfValid(request) ? sessions.actor(request, known) : Promise.resolve(null)),
    csrfValid: sessions.csrfValid,
  };
}

function contextOf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): GraphQLContext {
  const actor = request.actor!;
  const perform = async (id: OperationId, input: Record<string, unknown>) => (await ctx.performer.perform(actor, id, input, { call, count: false })).result;
  // Top-level reads by operation and input: aliases repeating one are each counted, and read once.
  const reads = new Map<string, Promise<unknown>>();
  const context: GraphQLContext = {
    actor,
    admitted: false,
    batches: new Batches(perform),
    perform,
    async root(id, input) {
      context.admitted = true;
      const admission = await admit(ctx, request, reply, id, { call, resource: 'api' });
      const key = `${id}\u0000${JSON.stringify(input)}`;
      let read = reads.get(key);
      if (!read) {
        read = run(ctx, request, reply, admission, input);
        reads.set(key, read);
      }
      return read;
    },
    async answer(input) {
      // As POST /answers: one request and one AI answer; the headers show the latest limits.
      context.admitted = true;
      const admission = await admit(ctx, request, reply, 'answers.create', { call, resource: 'api' });
      return run(ctx, request, reply, admission, input);
    },
  };
  return context;
}

export function graphqlSurface(ctx: AppContext) {
  return async function graphql(app: FastifyInstance): Promise<void> {
    // GraphiQL's files are open (./explorer.ts), as is the page a browser gets at the endpoint.
    await app.register(explorerAssets());
    await app.register(endpoint(ctx));
  };
}

function endpoint(ctx: AppContext) {
  return async function graphqlEndpoint(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.url === GRAPHQL_PATH && wantsExplorer(request)) return sendExplorer(ctx, request, reply);
    });
    authenticateRequests(app, ctx, { name: 'graphql', surface: 'api', allowApiKeyHeader: false, sessions: sessionsWithToken(ctx) });
    app.addHook('preHandler', async (request) => checkRequest(request));
    await app.register(mercurius, {
      schema: typeDefs,
      resolvers: resolvers as never,
      path: GRAPHQL_PATH,
      // Compile a document to JavaScript on its second use (graphql-jit).
      jit: 1,
      cache: KEPT_DOCUMENTS,
      // Depth counted over data fields only (./depth.ts), not mercurius's `queryDepth`, which counts
      // introspection too and so refuses every standard client's introspection query.
      validationRules: [DataDepthRule],
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      graphiql: false,
      ide: false,
      allowBatchedQueries: false,
      // Off (the default), stated: a signed-in session counts only with its X-CSRF-Token header
      // (sessionsWithToken), which no cross-site request can carry, so mercurius's CSRF headers
      // add nothing.
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
      // Every operation of the document is costed: the hook is not told which one runs.
      checkCost(schema, document, variables as Record<string, unknown> | undefined);
    });
    // A request whose document admitted no operation (only `__typename` or introspection) is one
    // request all the same.
    app.graphql.addHook('onResolution', async (_execution, context) => {
      const { reply } = context as unknown as GraphQLContext & { reply: FastifyReply };
      if (!(context as unknown as GraphQLContext).admitted) await countRequest(ctx, reply.request, reply);
    });
  };
}
