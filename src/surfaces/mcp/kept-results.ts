// Results of `cached` operations (reads of the public record, which depend only on their input)
// kept in memory by tool and arguments, as the HTTP routes keep their answers
// (surfaces/http/response-cache.ts): the public-data channel of kernel/coherence.ts drops them all
// when the record changes at any instance, and a result is kept only if nothing changed while it
// was being made. The access check and the count run before the lookup on every call.
import type { CacheChannel } from '../../kernel/coherence.ts';
import { CoherentMap } from '../../kernel/coherence.ts';

/** A tool result's structured content and the same JSON as text. */
export interface KeptResult {
  value: Record<string, unknown>;
  text: string;
}

/** Results kept at most; the least recently used makes room. */
const MAX_RESULTS = 20_000;
/** Larger results (long list pages) are not kept; one must not push out thousands of small ones. */
const MAX_RESULT_CHARS = 256 * 1024;

export interface KeptResults {
  /** The kept result of this tool for these arguments, or undefined. */
  get(tool: string, args: unknown): KeptResult | undefined;
  /** Before making a result: the generation it is made from. */
  mark(): number;
  keep(tool: string, args: unknown, result: KeptResult, mark: number): void;
}

export function createKeptResults(channel: CacheChannel): KeptResults {
  const results = new CoherentMap<KeptResult>(channel);
  const keyOf = (tool: string, args: unknown) => `${tool} ${JSON.stringify(args ?? {})}`;
  return {
    get(tool, args) {
      const key = keyOf(tool, args);
      const found = results.get(key);
      if (found) {
        // Most recently used goes last; making room takes from the front.
        results.entries.delete(key);
        results.entries.set(key, found);
      }
      return found;
    },
    mark: () => results.mark(),
    keep(tool, args, result, mark) {
      if (result.text.length > MAX_RESULT_CHARS || !results.mayKeep(mark)) return;
      if (results.entries.size >= MAX_RESULTS) results.entries.delete(results.entries.keys().next().value!);
      results.entries.set(keyOf(tool, args), result);
    },
  };
}
