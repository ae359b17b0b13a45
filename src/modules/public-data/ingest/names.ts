// Matching the names sources print (voters, sponsors, contribution recipients) to people, and
// mapping each source's vote words onto the service's eight vote values.
import { sql } from 'kysely';
import type { VoteValue } from '../tables.ts';
import type { Db } from './store.ts';

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/** Lower-case word tokens without punctuation, single letters (initials) and suffixes. */
export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/["“”(][^"“”)]*["“”)]/g, ' ') // nicknames in quotes or brackets
    .split(/[^a-z]+/)
    .filter((t) => t.length > 1 && !SUFFIXES.has(t) && t !== 'alderperson' && t !== 'ald' && t !== 'alderman');
}

/** Order-free key: "La Spata, Daniel" and "Daniel La Spata" give the same key. */
export function nameKey(name: string): string {
  return nameTokens(name).sort().join(' ');
}

const isSuffix = (part: string) => SUFFIXES.has(part.replace(/\./g, '').toLowerCase());

/**
 * "Last, First" → { given, family, name: "First Last" }; "First Last" is kept as is. A suffix
 * printed as its own comma part ("Cardona, Jr., Felix" in eLMS, "Cardona, Felix, Jr.") follows
 * the name: "Felix Cardona Jr.", as does one that opens the given part ("Scott, Jr. Michael").
 */
export function splitName(display: string): { name: string; sortName: string; given: string | null; family: string | null } {
  const trimmed = display.replace(/\s+/g, ' ').trim();
  if (trimmed.indexOf(',') > 0) {
    // DataMade's council-flow prints one name "Scott, Jr. Michael": a suffix opening the given part
    // is a part of its own.
    const parts = trimmed
      .split(',')
      .map((part) => part.trim())
      .flatMap((part, i) => {
        const m = i > 0 ? /^(\S+)\s+(.+)$/.exec(part) : null;
        return m && isSuffix(m[1]!) ? [m[1]!, m[2]!] : [part];
      });
    const family = parts[0]!;
    const suffix = parts.slice(1).filter(isSuffix);
    const given = parts
      .slice(1)
      .filter((part) => part && !isSuffix(part))
      .join(' ');
    const name = [given, family, ...suffix].filter(Boolean).join(' ');
    return { name, sortName: trimmed, given: given || null, family };
  }
  const parts = trimmed.split(' ');
  if (parts.length < 2) return { name: trimmed, sortName: trimmed, given: null, family: trimmed || null };
  const family = parts[parts.length - 1]!;
  const given = parts.slice(0, -1).join(' ');
  return { name: trimmed, sortName: `${family}, ${given}`, given, family };
}

export interface PersonMatcher {
  /** The person id for a printed name, or null when no one or more than one person fits. */
  match(name: string): string | null;
  add(id: string, names: string[], familyName?: string | null): void;
}

export function createMatcher(): PersonMatcher {
  const byKey = new Map<string, string | null>();
  const byFamily = new Map<string, string | null>();
  const put = (map: Map<string, string | null>, key: string, id: string) => {
    if (!key) return;
    const had = map.get(key);
    map.set(key, had === undefined || had === id ? id : null); // null marks an ambiguous key
  };
  return {
    add(id, names, familyName) {
      for (const n of names) put(byKey, nameKey(n), id);
      if (familyName) put(byFamily, nameKey(familyName), id);
    },
    match(name) {
      const key = nameKey(name);
      if (!key) return null;
      const exact = byKey.get(key);
      if (exact !== undefined) return exact;
      // "Ald. Burnett" or "Burnett" alone: only when one person has that family name.
      return byFamily.get(key) ?? null;
    },
  };
}

/** A matcher over the people already stored, optionally only some kinds (current first). */
export async function loadMatcher(db: Db, kinds: string[], onlyCurrent = false): Promise<PersonMatcher> {
  const matcher = createMatcher();
  const rows = await sql<{ id: string; name: string; sort_name: string; family_name: string | null }>`
    select id, name, sort_name, family_name from people
    where kind in (${sql.join(kinds)}) ${onlyCurrent ? sql`and current` : sql``}
    order by id`.execute(db);
  for (const r of rows.rows) matcher.add(r.id, [r.name, r.sort_name], r.family_name);
  return matcher;
}

const VOTE_WORDS: Record<string, VoteValue> = {
  yea: 'Yea',
  yes: 'Yea',
  aye: 'Yea',
  affirmative: 'Yea',
  nay: 'Nay',
  no: 'Nay',
  negative: 'Nay',
  absent: 'Absent',
  excused: 'Absent',
  medical: 'Absent',
  maternity: 'Absent',
  parental: 'Absent',
  'not voting': 'Not Voting',
  'non-voting': 'Not Voting',
  'non voting': 'Not Voting',
  abstain: 'Not Voting',
  abstained: 'Not Voting',
  abstention: 'Not Voting',
  present: 'Present',
  recused: 'Recused',
  recuse: 'Recused',
  conflict: 'Recused',
  vacant: 'Vacant',
  'rising vote': 'Rising Vote',
};

/** The service's vote value for a source's word, or null for a word it does not know. */
export function voteValue(word: string | null | undefined): VoteValue | null {
  if (!word) return null;
  return VOTE_WORDS[word.trim().toLowerCase()] ?? null;
}

const TALLY_COLUMNS: Record<VoteValue, string> = {
  Yea: 'yea',
  Nay: 'nay',
  Absent: 'absent',
  'Not Voting': 'not_voting',
  Present: 'present',
  Recused: 'recused',
  Vacant: 'vacant',
  'Rising Vote': 'rising_vote',
};

/** Tallies computed from the per-person values, so they always equal the sums. */
export function tallies(values: VoteValue[]): Record<string, number> {
  const out: Record<string, number> = {
    yea: 0,
    nay: 0,
    absent: 0,
    not_voting: 0,
    present: 0,
    recused: 0,
    vacant: 0,
    rising_vote: 0,
  };
  for (const v of values) out[TALLY_COLUMNS[v]]! += 1;
  return out;
}

/** The tally keys a source publishes (camelCase, as the API presents them) → roll_calls columns. */
const PUBLISHED_KEYS: Record<string, string> = {
  yea: 'yea',
  nay: 'nay',
  absent: 'absent',
  notVoting: 'not_voting',
  present: 'present',
  recused: 'recused',
  vacant: 'vacant',
  risingVote: 'rising_vote',
};

/**
 * A tally as the source published it, or null when it published none (or one that is not a set of
 * counts): then the caller counts the tally from the votes.
 */
export function publishedTallies(published: Record<string, unknown> | null | undefined): Record<string, number> | null {
  if (!published || typeof published !== 'object') return null;
  const out = tallies([]);
  let any = false;
  for (const [key, value] of Object.entries(published)) {
    const column = PUBLISHED_KEYS[key];
    if (!column) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
    out[column] = value;
    any = true;
  }
  return any ? out : null;
}
