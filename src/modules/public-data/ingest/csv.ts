// CSV/TSV exports as rows keyed by upper-cased header: the City's 2015 exports write "Year",
// the 2023 ones "YEAR" after a UTF-8 BOM, and the SODA API writes lower-case field names.
import { parse } from 'csv-parse/sync';

export type CsvRow = Record<string, string>;

export function parseTable(text: string, delimiter = ','): CsvRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const records = parse(body, {
    delimiter,
    columns: (header: string[]) =>
      header.map((h) =>
        h
          .replace(/^\uFEFF/, '')
          .trim()
          .toUpperCase(),
      ),
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: delimiter === '\t',
    quote: delimiter === '\t' ? false : '"',
    bom: true,
  }) as CsvRow[];
  return records;
}

/** A trimmed value, or null when empty. */
export function cell(row: CsvRow, ...names: string[]): string | null {
  for (const n of names) {
    const v = row[n];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return null;
}

/** 'YYYY-MM-DD' from "07/01/2015", "2015-07-01" or "2015-07-01T00:00:00.000". */
export function isoDate(value: string | null): string | null {
  if (!value) return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(value);
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return iso ? iso[1]! : null;
}

/** A decimal string from "$2,500.00" or "2500"; null when unreadable. */
export function money(value: string | null): string | null {
  if (!value) return null;
  const cleaned = value.replace(/[$,\s]/g, '');
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? cleaned : null;
}
