// CSV as RFC 4180 describes it: a header record, then one record per row, fields separated by
// commas and records ended by CRLF (§2.1, §2.3); a field holding a comma, a double quote, CR or LF
// is enclosed in double quotes, and a double quote inside one is doubled (§2.5–§2.7). UTF-8, no
// byte order mark. A null is an empty field; an empty string is `""`, so the two stay apart.
// Booleans are `true` / `false`; numbers and text are written as read.

const needsQuotes = /[",\r\n]/;

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);
  if (text === '') return '""';
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
