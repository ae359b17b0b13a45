// Open vocabularies (matter types and statuses differ from city to city): a filter value is
// checked against the values present in the data, so `type=Bogus` is a 400 that names the
// accepted values instead of a silently empty list. Values are cached and re-read on a miss.
import { AppError } from '../../kernel/errors.ts';
import { distinctValues } from './repo-matters.ts';
import type { Db } from './repo-sql.ts';

type Column = 'type' | 'status';

export function createVocabulary(db: Db) {
  const cache = new Map<Column, Map<string, string>>();
  async function load(column: Column): Promise<Map<string, string>> {
    const values = await distinctValues(db, column);
    const map = new Map(values.map((v) => [v.toLowerCase(), v]));
    cache.set(column, map);
    return map;
  }
  return {
    /** The stored spelling of `value` (case-insensitive), or a 400 listing what exists. */
    async canonical(column: Column, param: string, value: string): Promise<string> {
      const key = value.toLowerCase();
      const hit = cache.get(column)?.get(key);
      if (hit !== undefined) return hit;
      const fresh = await load(column);
      const found = fresh.get(key);
      if (found !== undefined) return found;
      const known = [...fresh.values()];
      const list = known.length > 0 ? `one of: ${known.join(', ')}` : 'a value present in the data (none are loaded yet)';
      throw new AppError('invalid_request', `Unknown ${param} "${value}"; ${param} must be ${list}.`);
    },
  };
}
