// Results of `cached` operations (reads of the public record, which depend only on their input)
// kept in memory by tool and arguments, as the HTTP routes keep their answers
// (surfaces/http/response-cache.ts): the public-data channel of kernel/coherence.ts drops them all
// when the record changes at any instance, and a result is kept only if nothing changed while it
// was being made. The access check and the count run before the lookup on every call. They are
// bounded by the memory they hold (MAX_CHARS), least recently used out first; past a sixteenth
// of that, a new result is kept at its second call only (kernel/coherence.ts `secondSight`).
import { ANSWERS_ADMISSION, type CacheChannel, type CacheMark, CoherentMap } from '../../kernel/coherence.ts';

/** A tool result written once as JSON, open at its end (./wire.ts openToolResult): every era's answer starts with it. */
export interface KeptResult {
  json: string;
}

/**
 * Memory the results may take, in bytes as counted below, as the HTTP answers
 * (surfaces/http/response-cache.ts MAX_BYTES). Before, 20,000 results of up to 256 K characters
 * each were allowed: gigabytes.
 */
export const MAX_CHARS = 64 * 1024 * 1024;
/**
 * A kept result holds one string: a character takes one byte, or two once the string holds any
 * character past Latin-1 (a typographic apostrophe in a title), counted as two. Plus the map's
 * slot, the entry and the string's header.
 */
const PER_CHAR = 2;
const ENTRY_OVERHEAD = 160;
/** Larger results (long list pages) are not kept; one must not push out thousands of small ones. */
const MAX_RESULT_CHARS = 512 * 1024;

export interface KeptResults {
  /** The kept result of this tool for these arguments, or undefined. */
  get(tool: string, args: unknown): KeptResult | undefined;
  /** Before making a result: the generation it is made from. */
  mark(): CacheMark;
  keep(tool: string, args: unknown, result: KeptResult, mark: CacheMark): void;
}

interface Entry {
  result: KeptResult;
  /** What it counts against the bound. */
  size: number;
}

export function createKeptResults(channel: CacheChannel, maxChars = MAX_CHARS): KeptResults {
  const results = new CoherentMap<Entry>(channel, {
    max: maxChars,
    sizeOf: (entry) => entry.size,
    ...ANSWERS_ADMISSION,
  });
  const keyOf = (tool: string, args: unknown) => `${tool} ${JSON.stringify(args ?? {})}`;
  return {
    // Most recently used goes last (get); making room takes from the front.
    get: (tool, args) => results.get(keyOf(tool, args))?.result,
    mark: () => results.mark(),
    keep(tool, args, result, mark) {
      if (result.json.length > MAX_RESULT_CHARS) return;
      const key = keyOf(tool, args);
      results.keep(key, { result, size: ENTRY_OVERHEAD + PER_CHAR * (key.length + result.json.length) }, mark);
    },
  };
}
