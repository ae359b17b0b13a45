// Which postings a search of matters walks (migration 0230: one row per lexeme of each matter, in
// date order). Relevance ranks a search's most recent matches; the postings of a term list its
// matters newest first, so the newest matches of the query are found by walking the postings of
// one term the query requires and keeping those that match it all — an index range read in the
// order wanted, instead of every match through the GIN index or the newest matters through the
// date index. Each walked matter's row is read and checked against the whole query (and the
// filters); the other requirements are not looked up in the postings first: a look-up there cost
// as much as reading the row (3.4 µs each on the benchmark's database, warm), and a query's words
// mostly come together ("lead service line replacement": four look-ups per matter made the
// search 8.7 ms against 5.1 ms without them).
//
// What a query requires is read from the `to_tsquery` text PostgreSQL makes of it (the parse of
// the manual's "Manipulating Queries": operands `'lexeme'`, with `:*` for a prefix and weight
// letters; `!`, `<->` and `<N>`, `&`, `|` from tightest to loosest; parentheses). A requirement
// is a set of lexemes at least one of which every match holds: a lexeme requires itself, `&` and
// a phrase require what either side requires, `a | b` requires the union of one requirement of
// each side, `!` and a prefix require nothing. The walk reads the requirement whose lexemes
// fewest matters hold (their postings counted, up to a bound); the query itself is checked on
// the row, so the requirements only choose where to look, never what matches.
import { sql } from 'kysely';
import type { Db } from './repo-sql.ts';

/** Lexemes of which every match holds at least one. */
export type Requirement = readonly string[];

export interface PostingsPlan {
  /** The requirement walked in date order: the fewest postings. */
  walk: Requirement;
  /**
   * The query as PostgreSQL parsed it (the `tsquery` text of both configurations OR-ed), which the
   * walk's statement takes as one parameter: parsed in the statement, a prepared statement's
   * generic plan parsed it again for every row it checked (9.7 ms against 2.2 ms for "lead service
   * line replacement" on the benchmark's database).
   */
  tsquery: string;
}

type Node = { kind: 'lexeme'; lexeme: string; prefix: boolean } | { kind: 'not'; arg: Node } | { kind: 'and' | 'or'; left: Node; right: Node };

/** Requirements past these sizes are dropped (a looser plan, never a wrong one). */
const MAX_LEXEMES_PER_REQUIREMENT = 8;
const MAX_REQUIREMENTS = 16;

type Token = { op: '&' | '|' | '!' | '(' | ')' | 'phrase' } | { op: 'operand'; lexeme: string; prefix: boolean };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ') i++;
    else if (c === '&' || c === '|' || c === '!' || c === '(' || c === ')') {
      out.push({ op: c });
      i++;
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      if (end < 0) throw new Error('unterminated phrase operator');
      out.push({ op: 'phrase' });
      i = end + 1;
    } else if (c === "'") {
      let lexeme = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated operand');
        const d = text[i]!;
        if (d === '\\') {
          lexeme += text[i + 1] ?? '';
          i += 2;
        } else if (d === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (d === "'") {
          i++;
          break;
        } else {
          lexeme += d;
          i++;
        }
      }
      let flags = '';
      if (text[i] === ':') {
        const m = /^:[*A-Da-d]*/.exec(text.slice(i))!;
        flags = m[0];
        i += flags.length;
      }
      out.push({ op: 'operand', lexeme, prefix: flags.includes('*') });
    } else throw new Error(`unexpected ${c}`);
  }
  return out;
}

/** The tree of a `to_tsquery` text (its output form), or throws on anything else. */
export function parseTsquery(text: string): Node | null {
  const ts = tokens(text);
  if (ts.length === 0) return null;
  let at = 0;
  const peek = () => ts[at]?.op;
  const binary = (kind: 'and' | 'or', op: Token['op'], next: () => Node) => () => {
    let left = next();
    while (peek() === op) {
      at++;
      left = { kind, left, right: next() };
    }
    return left;
  };
  const unary = (): Node => {
    const t = ts[at++];
    if (!t) throw new Error('operand expected');
    if (t.op === '!') return { kind: 'not', arg: unary() };
    if (t.op === '(') {
      const inner = or();
      if (ts[at++]?.op !== ')') throw new Error(') expected');
      return inner;
    }
    if (t.op === 'operand') return { kind: 'lexeme', lexeme: t.lexeme, prefix: t.prefix };
    throw new Error(`operand expected, not ${t.op}`);
  };
  // A phrase requires both sides as `&` does (where they stand is checked on the row).
  const phrase = binary('and', 'phrase', unary);
  const and = binary('and', '&', phrase);
  const or: () => Node = binary('or', '|', and);
  const tree = or();
  if (at !== ts.length) throw new Error('trailing input');
  return tree;
}

/** What every match of the tree holds: a list of requirements (empty: nothing known). */
export function requirementsOf(node: Node): Requirement[] {
  switch (node.kind) {
    case 'lexeme':
      return node.prefix ? [] : [[node.lexeme]];
    case 'not':
      return [];
    case 'and':
      return dedupe([...requirementsOf(node.left), ...requirementsOf(node.right)]);
    case 'or': {
      const left = requirementsOf(node.left);
      const right = requirementsOf(node.right);
      // Each side holds at most MAX_REQUIREMENTS (dedupe's cap): at most 256 unions, however long the query.
      const out: Requirement[] = [];
      for (const a of left) {
        for (const b of right) {
          const union = [...new Set([...a, ...b])].sort();
          if (union.length <= MAX_LEXEMES_PER_REQUIREMENT) out.push(union);
        }
      }
      return dedupe(out);
    }
  }
}

function dedupe(list: Requirement[]): Requirement[] {
  const seen = new Map<string, Requirement>();
  for (const r of list) seen.set(JSON.stringify([...r].sort()), r);
  // A requirement that holds another is implied by it: keep the narrower.
  const kept = [...seen.values()].filter((r) => ![...seen.values()].some((o) => o !== r && o.length < r.length && o.every((l) => r.includes(l))));
  return kept.slice(0, MAX_REQUIREMENTS);
}

/** The plan for requirements with each lexeme's count of matters, or null when nothing is required. */
export function planFor(requirements: Requirement[], counts: ReadonlyMap<string, number>, tsquery: string): PostingsPlan | null {
  if (requirements.length === 0) return null;
  const cost = (r: Requirement) => r.reduce((sum, l) => sum + (counts.get(l) ?? 0), 0);
  const ordered = [...requirements].sort((a, b) => cost(a) - cost(b));
  return { walk: ordered[0]!, tsquery };
}

/** Plans kept per query text: the parse is the dictionaries', fixed; the counts only choose the walk. */
const MAX_KEPT = 2000;
const COUNT_UP_TO = 20_000;
const COUNT_AT_LEAST = 500;
const COUNT_BUDGET = 60_000;
const COUNTS_FOR_MS = 5 * 60_000;

export function createPostingsPlanner(db: Db) {
  const kept = new Map<string, { plan: PostingsPlan | null; at: number }>();
  return {
    /** The plan for a `to_tsquery` text (./search-text.ts), read from the database once in a while. */
    async plan(queryText: string): Promise<PostingsPlan | null> {
      const hit = kept.get(queryText);
      if (hit && performance.now() - hit.at < COUNTS_FOR_MS) return hit.plan;
      const { rows } = await sql<{ t: string }>`select (to_tsquery('english', ${queryText}) || to_tsquery('simple', ${queryText}))::text as t`.execute(db);
      const parsed = rows[0]?.t ?? '';
      let tree: Node | null = null;
      try {
        tree = parseTsquery(parsed);
      } catch {
        // A form this parse does not know: the search takes the plan without postings.
      }
      const requirements = tree ? requirementsOf(tree) : [];
      const lexemes = [...new Set(requirements.flat())];
      const counts = new Map<string, number>();
      if (lexemes.length > 0) {
        // Each lexeme's postings counted up to a bound (index entries only): beyond it a term is
        // common, and its 500 newest matches come quickly whichever common term is walked. The
        // bound shares COUNT_BUDGET among the lexemes, so a long query (up to 128 lexemes) cannot
        // make a search count millions of entries.
        const upTo = Math.min(COUNT_UP_TO, Math.max(COUNT_AT_LEAST, Math.floor(COUNT_BUDGET / lexemes.length)));
        const { rows: found } = await sql<{ lexeme: string; n: number }>`select l as lexeme,
            (select count(*)::int from (select from matter_postings p where p.lexeme = l limit ${upTo}) x) as n
          from unnest(${lexemes}::text[]) l`.execute(db);
        for (const r of found) counts.set(r.lexeme, r.n);
      }
      const plan = planFor(requirements, counts, parsed);
      kept.delete(queryText);
      kept.set(queryText, { plan, at: performance.now() });
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      return plan;
    },
  };
}

export type PostingsPlanner = ReturnType<typeof createPostingsPlanner>;
