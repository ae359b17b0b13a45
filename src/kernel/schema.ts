// Schema primitives every module shares: nullable fields, the page parameters and the list
// envelope (decisions.md "Envelopes and limits"), and the one check of a value against a schema
// for callers that are not HTTP routes (Fastify validates those with the same schemas).
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { AppError } from './errors.ts';
import { checkJson } from './json-shape.ts';

/** A nullable value: one of a single type as a JSON Schema type list (OpenAPI 3.1), anything else as anyOf with null. */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string };
  if (typeof s.type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [s.type, 'null'] });
  return Type.Union([schema, Type.Null()]);
}

/** Longer than any cursor the service hands out; a longer one is not ours. */
export const MAX_CURSOR = 2000;
export const MAX_PAGE = 200;
export const DEFAULT_PAGE = 50;

/** `limit` and `cursor`, the same on every list of every surface. */
export const pageParams = {
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE, description: `Page size, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE}).` }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_CURSOR, description: 'Opaque cursor: `meta.nextCursor` of the previous page.' })),
};

/** A list's input: the given filters plus `limit` and `cursor`; nothing else. */
export function PageQuery<P extends TProperties>(filters: P) {
  return Type.Object({ ...filters, ...pageParams }, { additionalProperties: false });
}

export interface PageInput {
  limit: number;
  cursor?: string | undefined;
}

/** The list envelope: `{ data: [...], meta: { nextCursor } }`. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    meta: Type.Object({ nextCursor: Nullable(Type.String({ description: 'Cursor of the next page; null on the last page.' })) }),
  });
}

/** What a delete answers. */
export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

export interface Page<T> {
  data: T[];
  meta: { nextCursor: string | null };
}

const compiled = new WeakMap<TSchema, ReturnType<typeof Compile>>();

function validatorOf(schema: TSchema) {
  let v = compiled.get(schema);
  if (!v) {
    v = Compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/**
 * Checks a value against its schema; the first problem becomes a 400 naming where it is. Routes
 * are validated by Fastify with the same schema; this is the check for every other caller.
 */
export function validate<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  checkJson(value, `The ${what}`);
  const v = validatorOf(schema);
  // Defaults as Fastify applies them to a route's input (a list's `limit` of 50).
  const filled = value !== null && typeof value === 'object' ? v.Default(structuredClone(value)) : value;
  if (v.Check(filled)) return filled as Static<T>;
  value = filled;
  const errors = [...v.Errors(value)];
  const first = errors.find((e) => e.keyword !== 'boolean' && e.keyword !== 'anyOf') ?? errors[0];
  const where = first?.instancePath ? ` at ${first.instancePath}` : '';
  throw new AppError('invalid_request', `Invalid ${what}${where}: ${first?.message ?? 'does not match the schema'}.`);
}

/** The property names of an object schema. */
export function propertyNames(schema: TObject): string[] {
  return Object.keys(schema.properties);
}
