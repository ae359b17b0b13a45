// What a person types into a search box, read once into a text-search query PostgreSQL cannot
// refuse. The syntax is the web search syntax `websearch_to_tsquery` reads (PostgreSQL manual,
// "Parsing Queries"): words, "quoted phrases", `or` between two terms, `-` before a term to
// exclude it. That function fails on some inputs instead of reading them ("tsquery stack too
// small" past 32 `-` in a row, a NUL byte), so the text is parsed here and handed to `to_tsquery`
// with every operand quoted: each word or phrase goes through the configuration's parser and
// dictionaries as text only, and the only operators are the ones written here, at most one `!`
// per operand, so the query parser's operator stack never holds more than a few.

/** The operators a person's text may carry, and the terms they join. */
interface Term {
  /** The words of a word or a phrase, as typed (the configuration splits and normalises them). */
  text: string;
  exclude: boolean;
  /** Joined to the previous term with `or` (else `and`). */
  or: boolean;
}

/**
 * Characters that never reach the query: control characters (NUL included, which PostgreSQL
 * refuses in text) and the quote and backslash that delimit a quoted operand of `to_tsquery`.
 */
const UNREADABLE = /[\p{Cc}\\']/gu;

/** The terms of a search as web search syntax reads them. */
function termsOf(input: string): Term[] {
  // A lone surrogate (half of a UTF-16 pair) becomes U+FFFD, as it would on the wire.
  const text = input.toWellFormed().replace(UNREADABLE, ' ');
  const terms: Term[] = [];
  let or = false;
  // A phrase runs to the next quote (or the end); a word to the next space or quote.
  for (const m of text.matchAll(/(-*)\s*"([^"]*)"?|(\S+?)(?=\s|"|$)/gu)) {
    const phrase = m[2];
    let word = m[3];
    let exclude = (m[1] ?? '').length > 0;
    if (word !== undefined) {
      // Dashes before a word exclude it (one or many); a run of dashes alone is no term.
      const stripped = word.replace(/^-+/, '');
      exclude = stripped.length < word.length;
      word = stripped;
      if (word === '') continue;
      if (word.toLowerCase() === 'or' && !exclude) {
        or = terms.length > 0;
        continue;
      }
    }
    const words = (phrase ?? word ?? '').trim();
    // A term with no letter or digit holds no lexeme; dropping it here keeps the query's shape simple.
    if (!/[\p{L}\p{N}]/u.test(words)) continue;
    terms.push({ text: words, exclude, or });
    or = false;
  }
  return terms;
}

/**
 * The `to_tsquery` text for a person's search: terms joined by `&` (or `|` where `or` stood),
 * `&` binding tighter as in web search syntax, each operand a quoted string (a phrase's words
 * become a `<->` phrase there). Empty when the search holds no word: it then matches nothing.
 */
export function searchQueryText(input: string): string {
  return termsOf(input)
    .map((t, i) => `${i === 0 ? '' : t.or ? ' | ' : ' & '}${t.exclude ? '!' : ''}'${t.text}'`)
    .join('');
}
