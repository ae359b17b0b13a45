// The cost limit (the depth limit is ./depth.ts): a query is refused before it runs (400
// invalid_request, the reason in the message) when it would cost more than MAX_COST. The cost counts
// what the query makes the service do: every top-level field is a REST call of its own (ROOT_FIELD:
// a tenth of the bound, so a document holds at most ten, and a pile of aliased aggregates is
// refused before any of it reaches the database), every field of every item is output, and a list multiplies its items' cost by how many it can hold: a
// paged list by its `limit` (the maximum, 200, when a variable gives it, so the cost of a document
// never depends on its variables unless a directive's does), a record's parts
// by a typical count. Aliases count as the fields they repeat. An introspection field (`__schema`,
// `__type`) reads the schema in memory, whatever it selects: it costs INTROSPECTION, fixed.
import { type DocumentNode, type FieldNode, type GraphQLSchema, getNamedType, isCompositeType, isListType, isNonNullType, Kind, visit } from 'graphql';
import { type ComplexityEstimatorArgs, getComplexity } from 'graphql-query-complexity';
import { AppError } from '../../kernel/errors.ts';
import { DEFAULT_PAGE, MAX_PAGE } from '../../kernel/schema.ts';

export { MAX_DEPTH } from './depth.ts';
export const MAX_COST = 50_000;
/** What one top-level field costs besides its output: a REST call's read of the database. */
export const ROOT_FIELD = 5_000;
/** What `__schema` or `__type` costs, whatever it selects: as much as a top-level data field. */
export const INTROSPECTION = ROOT_FIELD;
/** More nodes than any query within MAX_COST has; a flood stops being counted here. */
const MAX_NODES = 5_000;

/** Typical counts of a record's unpaged parts (a roll call has 50 votes, an agenda tens of items). */
const partCount: Record<string, number> = {
  votes: 50,
  attendance: 50,
  agenda: 50,
  members: 30,
  testimony: 20,
  absentees: 10,
  actions: 10,
  citations: 10,
  committees: 10,
  documents: 5,
  meetings: 5,
  rollCalls: 5,
  sponsors: 5,
  terms: 5,
};

function pageSize(node: FieldNode): number {
  const arg = node.arguments?.find((a) => a.name.value === 'limit');
  if (!arg) return DEFAULT_PAGE;
  if (arg.value.kind === Kind.INT) return Math.min(Math.max(Number(arg.value.value), 1), MAX_PAGE);
  return MAX_PAGE;
}

function estimate({ type, field, node, childComplexity }: ComplexityEstimatorArgs): number {
  if (field.name === '__schema' || field.name === '__type') return INTROSPECTION;
  if (type.name.startsWith('__')) return 0;
  const root = type.name === 'Query' || type.name === 'Mutation' ? ROOT_FIELD : 0;
  const hasLimit = field.args.some((a) => a.name === 'limit');
  if (hasLimit) return root + 1 + pageSize(node) * childComplexity;
  const t = isNonNullType(field.type) ? field.type.ofType : field.type;
  // A page's `data` holds the items its list field already counted `limit` times.
  if (type.name.endsWith('Page')) return 1 + childComplexity;
  if (isListType(t) && isCompositeType(getNamedType(t))) return root + 1 + (partCount[field.name] ?? 10) * childComplexity;
  return root + 1 + childComplexity;
}

/** Whether `@skip`/`@include` take a variable: then the cost depends on the variables. */
function variableDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.arguments?.some((a) => a.value.kind === Kind.VARIABLE)) found = true;
    },
  });
  return found;
}

/** The cost of each kept document whose cost its variables cannot change. */
const costs = new WeakMap<DocumentNode, number>();

/**
 * Refuses a document that costs more than MAX_COST (400 invalid_request). Run before every
 * execution: a kept (already validated) document is checked too, from its remembered cost.
 */
export function checkCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined): void {
  let cost = costs.get(document);
  if (cost === undefined) {
    try {
      cost = getComplexity({ schema, query: document, variables: variables ?? {}, estimators: [estimate], maxQueryNodes: MAX_NODES });
    } catch (err) {
      throw new AppError('invalid_request', `The query is too large to run: ${(err as Error).message}`);
    }
    if (!variableDirectives(document)) costs.set(document, cost);
  }
  if (cost > MAX_COST) {
    throw new AppError(
      'invalid_request',
      `The query costs ${cost}, more than the ${MAX_COST} allowed: each top-level field costs ${ROOT_FIELD}, and a list multiplies what it selects by its limit (${MAX_PAGE} when a variable sets it). Ask for fewer fields, smaller pages or fewer aliases.`,
    );
  }
}
