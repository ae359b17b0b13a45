// PostgreSQL's text form of a one-dimensional text array (`{a,"b c",NULL}`), read in one pass.
// pg's own reader (pg-types with postgres-array 2) makes an object for every character and joins
// the characters of each element: a search page's 51 `topics` arrays made about 50 KB of garbage
// a request, a ninth of everything it allocated (measured under the benchmark's search load).
// Anything else — nested arrays, explicit bounds (`[0:1]={…}`), a text that does not parse — is
// left to pg's own reader (`fallback`), so the values are always the ones it gives.
//
// The text form (PostgreSQL's array_out): elements separated by commas; an element is quoted when
// it is empty, holds a brace, comma, double quote, backslash or white space, or reads NULL; inside
// quotes a double quote or backslash is written after a backslash; an unquoted NULL is the null value.

/** The elements of `text`, or what `fallback` reads from it when it is not the simple case. */
export function parseTextArray(text: string, fallback: (text: string) => unknown): unknown {
  const last = text.length - 1;
  if (text.charCodeAt(0) !== 0x7b || text.charCodeAt(last) !== 0x7d) return fallback(text);
  const out: (string | null)[] = [];
  if (last === 1) return out;
  let i = 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A quoted element: runs between escapes are copied whole.
      let value = '';
      let from = i + 1;
      let j = from;
      for (;;) {
        if (j >= last) return fallback(text);
        const d = text.charCodeAt(j);
        if (d === 0x22) break;
        if (d === 0x5c) {
          value += text.slice(from, j) + text.charAt(j + 1);
          j += 2;
          from = j;
        } else j++;
      }
      out.push(value + text.slice(from, j));
      i = j + 1;
    } else if (c === 0x7b) {
      return fallback(text);
    } else {
      let j = text.indexOf(',', i);
      if (j === -1 || j > last) j = last;
      const value = text.slice(i, j);
      // PostgreSQL quotes an element holding any of these; pg's reader reads such a text its own way.
      if (value.length === 0 || /["{}\\]/.test(value)) return fallback(text);
      out.push(value === 'NULL' ? null : value);
      i = j;
    }
    if (i === last) return out;
    if (text.charCodeAt(i) !== 0x2c) return fallback(text);
    i++;
  }
}
