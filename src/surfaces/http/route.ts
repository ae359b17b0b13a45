// An HTTP route binds one operation of the catalogue to a method and a path: the operation's input
// is split into the path parameters (named in the path), the query (reads) or the JSON body
// (writes), and Fastify validates each part with the same schemas, serializes through the
// operation's output schema and describes it in OpenAPI. A route holds no logic of its own.
import type { FastifyRequest } from 'fastify';
import { type TObject, type TSchema, Type } from 'typebox';
import type { OperationId } from '../../catalogue.ts';
import type { Operation } from '../../kernel/catalogue.ts';

/** Methods that change something: they take an Idempotency-Key, and a session needs CSRF for them. */
export const writeMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the surface prefix, Fastify style: `/matters/:record`. Each `:name` is an input field. */
  path: string;
  operation: OperationId;
  /**
   * For POST, PUT and PATCH: the JSON body is the input's fields beside the path's ('fields', the
   * default), or the value of one input field (e.g. 'change').
   */
  body?: 'fields' | (string & {});
  /** Success status (default 201 for POST, else 200). */
  status?: number;
  /** Where the created thing lives (the Location header of a 201), from the operation's result. */
  location?: (result: any) => string;
}

export function route(method: RouteDef['method'], path: string, operation: OperationId, extra: Pick<RouteDef, 'body' | 'status' | 'location'> = {}): RouteDef {
  return { method, path, operation, ...extra };
}

export function pathNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function successStatus(def: RouteDef): number {
  return def.status ?? (def.method === 'POST' ? 201 : 200);
}

export interface RouteParts {
  params?: TObject;
  querystring?: TObject;
  body?: TSchema;
}

function pick(input: TObject, names: readonly string[]): TObject {
  const properties = Object.fromEntries(names.map((n) => [n, input.properties[n]!]));
  return Type.Object(properties as never, { additionalProperties: false });
}

const partsOf = new WeakMap<RouteDef, RouteParts>();

/** The schemas of the path, query and body that together make the operation's input. */
export function routeParts(def: RouteDef, op: Operation): RouteParts {
  const kept = partsOf.get(def);
  if (kept) return kept;
  const input = op.input;
  const inPath = pathNames(def.path);
  for (const name of inPath) if (!input.properties[name]) throw new Error(`${def.method} ${def.path}: ${op.id} has no input field "${name}".`);
  const rest = Object.keys(input.properties).filter((n) => !inPath.includes(n));
  // The input itself when the path takes none of it: its own options (additionalProperties,
  // minProperties, descriptions) then hold for the part unchanged.
  const whole = (names: string[]) => (inPath.length === 0 ? input : pick(input, names));
  const parts: RouteParts = inPath.length ? { params: pick(input, inPath) } : {};
  const bodyField = def.body && def.body !== 'fields' ? def.body : null;
  if (def.method === 'GET' || def.method === 'DELETE') {
    if (rest.length) parts.querystring = whole(rest);
  } else if (bodyField) {
    if (!input.properties[bodyField] || rest.length !== 1)
      throw new Error(`${def.method} ${def.path}: the body field "${bodyField}" must be the only input beside the path.`);
    parts.body = input.properties[bodyField]!;
  } else if (rest.length) {
    parts.body = whole(rest);
  }
  partsOf.set(def, parts);
  return parts;
}

/** The operation's input from a validated request: path, then query or body. */
export function routeInput(def: RouteDef, parts: RouteParts, request: FastifyRequest): Record<string, unknown> {
  const params = (parts.params ? request.params : {}) as Record<string, unknown>;
  if (parts.querystring) return { ...(request.query as Record<string, unknown>), ...params };
  if (!parts.body) return params;
  if (def.body && def.body !== 'fields') return { ...params, [def.body]: request.body };
  return { ...(request.body as Record<string, unknown>), ...params };
}
