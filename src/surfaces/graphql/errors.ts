// GraphQL errors in the one error catalogue (kernel/errors.ts): every error carries
// `extensions.code` (and `status`) of the catalogue. A request refused before it runs (no
// credential, limits used up, a body or document that cannot be read, a query too deep or too
// costly, a mutation sent with GET) answers with that status and `{ errors }`; once the document
// runs, field errors come back beside the data with 200 (GraphQL over HTTP, application/json),
// except when no field has data and every error is the same refusal, which then sets the status
// as REST would (a lone `answer` refused for its scope is 403, its AI limit 429 with Retry-After;
// a lone `matter` not found is 404).
import type { FastifyReply } from 'fastify';
import { GraphQLError } from 'graphql';
import { AppError, normalizeError } from '../../kernel/errors.ts';
import { renderGraphQL } from '../http/render.ts';

interface GraphQLErrorJson {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: { code: string; status: number };
}

/** One error as the GraphQL renderer of the HTTP surfaces (render.ts) shapes it, with where it is in the document. */
const json = (err: AppError, from?: GraphQLError): GraphQLErrorJson => {
  const [rendered] = (renderGraphQL(err) as { errors: GraphQLErrorJson[] }).errors;
  return {
    message: rendered!.message,
    ...(from?.locations ? { locations: from.locations } : {}),
    ...(from?.path ? { path: from.path } : {}),
    extensions: rendered!.extensions,
  };
};

/** Mercurius's own request errors, by their code. */
function mercuriusError(error: { code?: string; message?: string; errors?: unknown[] }): AppError | null {
  switch (error.code) {
    case 'MER_ERR_METHOD_NOT_ALLOWED':
      // RFC 9110 §15.5.6: a 405 names the methods that are allowed.
      return new AppError('method_not_allowed', 'A mutation is sent with POST; GET carries queries only.', { Allow: 'POST' });
    case 'MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND':
      return new AppError('invalid_request', 'The request holds no GraphQL query: send { "query": "…" } with POST, or ?query=… with GET.');
    case 'MER_ERR_GQL_VALIDATION':
      return new AppError('invalid_request', error.message ?? 'The GraphQL request is not valid.');
    default:
      return null;
  }
}

/** A request-level error: its AppError, and the GraphQL errors it stands for. */
export function requestError(error: unknown): { err: AppError; errors: GraphQLErrorJson[] } {
  if (error instanceof GraphQLError) {
    const err = new AppError('invalid_request', error.message);
    return { err, errors: [json(err, error)] };
  }
  const e = error as { code?: string; message?: string; errors?: unknown[] };
  const known = mercuriusError(e);
  if (known && Array.isArray(e.errors) && e.errors.length > 0) {
    // Validation: one error per problem, each in the catalogue's words.
    const errors = e.errors.map((inner) => {
      const i = inner as GraphQLError & { code?: string };
      const one = known.code === 'method_not_allowed' ? known : new AppError('invalid_request', i.message);
      return json(one, i instanceof GraphQLError ? i : undefined);
    });
    const err = new AppError(known.code, errors[0]!.message, known.headers);
    return { err, errors };
  }
  const err = known ?? normalizeError(error);
  return { err, errors: [json(err)] };
}

/** A field error's AppError: thrown by an operation, or GraphQL's own (a variable of the wrong type). */
function fieldError(error: GraphQLError): AppError {
  const original = error.originalError;
  if (original === undefined || original === null || original instanceof GraphQLError) return new AppError('invalid_request', error.message);
  return normalizeError(original);
}

interface Execution {
  data?: unknown;
  errors?: readonly GraphQLError[];
}

/** Mercurius's errorFormatter: field errors in the catalogue's words, and the status they set. */
export function formatExecution(
  execution: Execution,
  reply: FastifyReply | undefined,
): { statusCode: number; response: { data: unknown; errors: GraphQLErrorJson[] } } {
  const appErrors = (execution.errors ?? []).map((e) => ({ gql: e, app: fieldError(e) }));
  for (const { app, gql } of appErrors) {
    if (app.status >= 500) reply?.log.error({ err: gql.originalError ?? gql }, 'GraphQL field failed');
  }
  const errors = appErrors.map(({ gql, app }) => json(app, gql));
  let statusCode = 200;
  const first = appErrors[0]?.app;
  const noData = execution.data == null || Object.values(execution.data as Record<string, unknown>).every((v) => v === null);
  if (noData && first && appErrors.every(({ app }) => app.code === first.code)) {
    statusCode = first.status;
    if (reply) for (const [name, value] of Object.entries(first.headers)) reply.header(name, value);
  }
  return { statusCode, response: { data: execution.data ?? null, errors } };
}
