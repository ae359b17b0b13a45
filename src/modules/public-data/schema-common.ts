// Shared pieces of the public-data schemas: list parameters, the list envelope, nullable fields.
// These TypeBox objects are JSON Schema: Fastify validates queries and serializes responses with
// them, and the OpenAPI description is generated from the same objects.
import { type TObject, type TProperties, Type } from 'typebox';
import { ListOf, Nullable, pageParams } from '../../kernel/schema.ts';

export { ListOf, Nullable };

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

/** The page parameters of every list, and `updated_since` on the public record's lists. */
export const listParams = {
  ...pageParams,
  updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'Only records whose content changed at or after this ISO 8601 timestamp.' })),
};

export const qParam = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_Q,
      description: `Free-text search over ${what} (web search syntax: "quoted phrase", or, -not). At most ${MAX_Q} characters.`,
    }),
  );

export const sortParam = <const V extends string[]>(values: V, description: string) =>
  Type.Optional(Type.Enum(values, { description: `${description} A leading "-" sorts descending.` }));

export const dateFrom = (what: string) => Type.Optional(DateString(`Only ${what} on or after this date (YYYY-MM-DD).`));
export const dateTo = (what: string) => Type.Optional(DateString(`Only ${what} on or before this date (YYYY-MM-DD).`));

/** A list query schema: the given filters plus limit, cursor and updated_since; nothing else. */
export function ListQuery<P extends TProperties>(filters: P) {
  return Type.Object({ ...filters, ...listParams }, { additionalProperties: false });
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
