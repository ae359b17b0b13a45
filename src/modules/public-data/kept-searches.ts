// Search results kept in memory, shared by every spelling of one query: "Budget", "budget " and
// "BUDGET" reach the database as the same text-search query (./search-text.ts, then the
// configurations lower-case every word), so they share one kept page. The key is that normalised
// query with every input that changes the answer (filters, order, page size, cursor, nested
// parts); the data's version is the public-data channel of kernel/coherence.ts, which drops every
// kept page when the public record changes at any instance (the triggers of migration 0070), or
// when the listener is lost; a page read while it changed is not kept. Searches read the public
// record only, so a page is the same whoever asks; the access check and counting run before.
// Bounded by the memory the pages hold (MAX_BYTES), least recently used out first; past a
// sixteenth of that, a new page is kept at its second asking only (kernel/coherence.ts `secondSight`).
import { ANSWERS_ADMISSION, type CacheChannel, CoherentMap } from '../../kernel/coherence.ts';
import { recordNumberPattern } from './repo-matters.ts';
import { searchQueryText } from './search-text.ts';

/** Memory the kept pages may take, counted as below (a page is small: one page of results). */
export const MAX_BYTES = 16 * 1024 * 1024;
/** A kept page counts its key and its JSON at two bytes a character, plus the map's slot and the entry. */
const PER_CHAR = 2;
const ENTRY_OVERHEAD = 160;
/** Larger pages (many nested votes) are not kept; one must not push out hundreds of small ones. */
const MAX_ENTRY_CHARS = 256 * 1024;

/**
 * The query as the database reads it. An exact record number is compared without letter case
 * (repo-sql.ts recordEquals); any other text is the parsed `to_tsquery` text, whose ASCII letters
 * both configurations ('english', 'simple') lower-case and whose runs of spaces separate words
 * alike. Other letters keep their case: whether PostgreSQL lower-cases them depends on the
 * database's locale.
 */
export function normalisedQuery(q: string): string {
  const trimmed = q.trim();
  if (recordNumberPattern.test(trimmed)) return `record ${trimmed.toLowerCase()}`;
  return `text ${searchQueryText(q)
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/ {2,}/g, ' ')}`;
}

/**
 * A page is kept as its JSON text: one string for the garbage collector to step over at each full
 * collection, where a kept object tree (a thousand objects for 50 matters) was marked object by
 * object, and a miss no longer copies the page (the text was made anyway, to count its size).
 * Pages hold JSON values only (presenters write dates as text), so parsing gives back what was
 * kept. Measured on the search subset: 327 and 331 req/s against 271 to 320 before; the
 * one-connection p99 unchanged (17.5 and 18.0 ms against 17.4 to 19.2).
 */
interface Entry {
  json: string;
  size: number;
}

export interface KeptSearches {
  /**
   * The answer of `read` for this search: kept, or read and kept. `key` holds every input that
   * changes the answer besides the query; `q` is normalised here.
   */
  answer<T>(kind: string, q: string, key: Record<string, unknown>, read: () => Promise<T>): Promise<T>;
  /** Memory the kept pages count against MAX_BYTES now. */
  bytes(): number;
}

export function createKeptSearches(channel: CacheChannel, maxBytes = MAX_BYTES): KeptSearches {
  const pages = new CoherentMap<Entry>(channel, {
    max: maxBytes,
    sizeOf: (entry) => entry.size,
    ...ANSWERS_ADMISSION,
  });
  return {
    bytes: () => pages.size,
    async answer(kind, q, key, read) {
      const k = `${kind} ${normalisedQuery(q)} ${JSON.stringify(key)}`;
      // A new copy each time (callers may change what they are given).
      const kept = pages.get(k);
      if (kept) return JSON.parse(kept.json) as Awaited<ReturnType<typeof read>>;
      // A page that would not be kept (a query new to a busy map) is not turned into JSON for nothing.
      if (pages.refusesUnmade(k)) return read();
      const mark = pages.mark();
      const value = await read();
      const json = JSON.stringify(value);
      const chars = json.length + k.length;
      if (chars <= MAX_ENTRY_CHARS) pages.keep(k, { json, size: ENTRY_OVERHEAD + PER_CHAR * chars }, mark);
      return value;
    },
  };
}
