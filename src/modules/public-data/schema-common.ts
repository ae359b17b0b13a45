// Shared pieces of the public-data schemas: list parameters, the list envelope, nullable fields.
// These TypeBox objects are JSON Schema: Fastify validates queries and serializes responses with
// them, and the OpenAPI description is generated from the same objects.
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';

/** A nullable primitive, written as a JSON Schema type list (OpenAPI 3.1). */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string };
  if (typeof s.type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [s.type, 'null'] });
  return Type.Union([schema, Type.Null()]);
}

export const NullableString = (description?: string) => Nullable(Type.String(description ? { description } : {}));
export const DateString = (description: string) => Type.String({ format: 'date', description });
export const NullableDate = (description: string) => Nullable(Type.String({ format: 'date', description }));
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/**
 * Money is a decimal string with exactly two decimals ("2500.00"): amounts stay exact (no binary
 * floating point) and sum the way the source's ledgers do.
 */
export const Money = (description: string) => Type.String({ pattern: '^-?[0-9]+\\.[0-9]{2}$', description });

export const MAX_Q = 200;

export const listParams = {
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200 (default 50).' }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Opaque cursor: `meta.nextCursor` of the previous page.' })),
  updated_since: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only records whose content changed at or after this ISO 8601 timestamp.' }),
  ),
};

export const qParam = (what: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: MAX_Q, description: `Free-text search over ${what} (web search syntax: "quoted phrase", or, -not). At most ${MAX_Q} characters.` }));

export const sortParam = <const V extends string[]>(values: V, description: string) =>
  Type.Optional(Type.Enum(values, { description: `${description} A leading "-" sorts descending.` }));

export const dateFrom = (what: string) => Type.Optional(DateString(`Only ${what} on or after this date (YYYY-MM-DD).`));
export const dateTo = (what: string) => Type.Optional(DateString(`Only ${what} on or before this date (YYYY-MM-DD).`));

/** A list query schema: the given filters plus limit, cursor and updated_since; nothing else. */
export function ListQuery<P extends TProperties>(filters: P) {
  return Type.Object({ ...filters, ...listParams }, { additionalProperties: false });
}

/** The list envelope: `{ data: [...], meta: { nextCursor } }`. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    meta: Type.Object({ nextCursor: Nullable(Type.String({ description: 'Cursor of the next page; null on the last page.' })) }),
  });
}

export interface ListInput {
  limit: number;
  cursor?: string | undefined;
  updated_since?: string | undefined;
}

export const idParams = (name: string, description: string) =>
  Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200, description }) }, { additionalProperties: false }) as TObject;

export const Provenance = {
  sourceUrl: NullableString('The record at its official source.'),
  updatedAt: Timestamp('When this record last changed here.'),
};
