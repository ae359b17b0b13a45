// The GraphQL-over-HTTP request, read the same way for GET and POST before mercurius sees it: its
// parameters (GraphQL over HTTP §5.1), and which operation of the document runs (GraphQL §6.1
// GetOperation): an unknown `operationName`, or several operations and none named, is 400 with
// graphql-js's own words; a mutation sent with GET is 405 (GraphQL over HTTP §6.4.1).
import type { FastifyRequest } from 'fastify';
import { type DocumentNode, Kind, type OperationTypeNode, parse } from 'graphql';
import { AppError } from '../../kernel/errors.ts';

/** Longer than any query a client needs; the parser also stops after MAX_TOKENS tokens. */
export const MAX_QUERY = 20_000;
export const MAX_TOKENS = 5_000;
/** Parsed and compiled documents kept (mercurius's cache), and the operations of as many sources. */
export const KEPT_DOCUMENTS = 1_000;

interface OperationSummary {
  name: string | null;
  type: OperationTypeNode;
}

/** The operations of each source seen lately, so a kept document is not parsed again to select one. */
const operationsOf = new Map<string, readonly OperationSummary[] | null>();

function summarize(source: string): readonly OperationSummary[] | null {
  const kept = operationsOf.get(source);
  if (kept !== undefined) return kept;
  let document: DocumentNode | null = null;
  try {
    document = parse(source, { maxTokens: MAX_TOKENS });
  } catch {
    // Not GraphQL: mercurius refuses it with the parser's words (./index.ts).
  }
  const operations = document
    ? document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [{ name: d.name?.value ?? null, type: d.operation }] : []))
    : null;
  if (operationsOf.size >= KEPT_DOCUMENTS) operationsOf.delete(operationsOf.keys().next().value!);
  operationsOf.set(source, operations);
  return operations;
}

/** GraphQL §6.1 GetOperation(document, operationName), refusing as graphql-js words it. */
function selectOperation(source: string, operationName: string | undefined, method: string): void {
  const operations = summarize(source);
  if (!operations || operations.length === 0) return;
  let selected: OperationSummary | undefined;
  if (operationName === undefined) {
    if (operations.length > 1) throw new AppError('invalid_request', 'Must provide operation name if query contains multiple operations.');
    selected = operations[0];
  } else {
    selected = operations.find((op) => op.name === operationName);
    if (!selected) throw new AppError('invalid_request', `Unknown operation named "${operationName}".`);
  }
  if (method === 'GET' && selected!.type !== 'query') {
    // RFC 9110 §15.5.6: a 405 names the methods that are allowed.
    throw new AppError('method_not_allowed', 'A mutation is sent with POST; GET carries queries only.', { Allow: 'POST' });
  }
}

/**
 * GraphQL over HTTP §5.1, "Request Parameters": a JSON object (or the query string of a GET)
 * whose `query` is a string, `variables` an object and `operationName` a string, when given; then
 * the operation it names. One path for both methods.
 */
export function checkRequest(request: FastifyRequest): void {
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
  if (typeof query === 'string') selectOperation(query, (operationName as string | null | undefined) ?? undefined, request.method);
}
