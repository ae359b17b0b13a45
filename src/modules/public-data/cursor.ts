// Opaque keyset cursors. A cursor holds the sort it was made for and the sort key of the last row
// sent, never an offset: rows inserted before that point cannot shift the next page.
import type { Page } from '../../kernel/schema.ts';
import { AppError } from '../../kernel/errors.ts';

export type CursorValue = string | number | null;

interface Payload {
  s: string;
  k: CursorValue[];
}

export function encodeCursor(sort: string, key: CursorValue[]): string {
  return Buffer.from(JSON.stringify({ s: sort, k: key } satisfies Payload)).toString('base64url');
}

const malformed = () => new AppError('invalid_request', 'The cursor is malformed; pass meta.nextCursor from the previous page unchanged.');

/** The key a cursor carries; a cursor made for another sort or shape is refused (400). */
export function decodeCursor(raw: string, sort: string, arity: number): CursorValue[] {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(raw)) throw malformed();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  const p = payload as Partial<Payload> | null;
  if (!p || typeof p !== 'object' || typeof p.s !== 'string' || !Array.isArray(p.k) || p.k.length !== arity) throw malformed();
  if (!p.k.every((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) throw malformed();
  if (p.s !== sort) {
    throw new AppError('invalid_request', `The cursor was made for sort "${p.s}", not "${sort}"; keep the same sort while paging.`);
  }
  return p.k;
}

/** A page of rows plus the cursor of the next one (null on the last page). */
export type { Page };

/**
 * Cuts a `limit + 1` fetch to `limit` rows: the extra row only proves a next page exists, so no
 * count over the whole result is ever needed.
 */
export function toPage<R, T>(rows: R[], limit: number, sort: string, keyOf: (row: R) => CursorValue[], present: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return {
    data: kept.map(present),
    meta: { nextCursor: more && last !== undefined ? encodeCursor(sort, keyOf(last)) : null },
  };
}
