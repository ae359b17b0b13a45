// The view model of a public page: one document per page, built from the catalogue's operations,
// from which both the HTML page and its Markdown variant are rendered (render-html.ts,
// render-markdown.ts), so the two can never disagree. Links are site paths; the Markdown variant
// makes them absolute from BASE_URL.
import type { Bar } from '../charts/bar-chart.ts';

export interface Link {
  text: string;
  href: string;
}

/** A run of text: plain strings and links. */
export type Inline = string | Link;
export type Text = Inline | readonly Inline[];

export interface FormField {
  name: string;
  label: string;
  value: string;
  /** A choice among these ([value, label]); a text box when absent. */
  options?: readonly (readonly [string, string])[];
  type?: 'text' | 'search' | 'date';
}

export type Block =
  | { kind: 'section'; heading: string; blocks: Block[] }
  | { kind: 'paragraph'; text: Text }
  | { kind: 'facts'; items: readonly (readonly [string, Text])[] }
  | { kind: 'list'; items: readonly Text[]; ordered?: boolean }
  | {
      kind: 'table';
      caption: string;
      head: readonly string[];
      rows: readonly (readonly Text[])[];
      /** Columns of figures: right-aligned, never wrapped. */
      numeric?: readonly number[];
      /** Columns of long unbroken identifiers (a file's SHA-256): wrapped anywhere rather than widening the table. */
      digests?: readonly number[];
    }
  /** Drawn as an SVG bar chart in HTML, always followed by the same figures as a table. */
  | { kind: 'chart'; title: string; bars: readonly Bar[]; head: readonly [string, string] }
  | { kind: 'form'; action: string; label: string; fields: readonly FormField[] }
  | { kind: 'pager'; next: string | null };

export interface PageModel {
  title: string;
  /** One sentence: the meta description and the OpenGraph description. */
  description: string;
  /** The page's path (without `.md`), with its query when it has one. */
  path: string;
  /** When what the page shows last changed (Last-Modified), or null when unknown. */
  updatedAt: string | null;
  /** Atom feeds about what the page shows. */
  feeds: readonly Link[];
  blocks: Block[];
  /** An HTML-only figure (a map) placed after the first paragraph; the Markdown variant links its data instead. */
  figure?: { html: string; markdown: Text };
}

export const link = (text: string, href: string): Link => ({ text, href });

export function section(heading: string, blocks: Block[]): Block {
  return { kind: 'section', heading, blocks };
}

export function paragraph(text: Text): Block {
  return { kind: 'paragraph', text };
}

export function facts(items: readonly (readonly [string, Text | null | undefined])[]): Block {
  return { kind: 'facts', items: items.filter((i): i is readonly [string, Text] => i[1] !== null && i[1] !== undefined && i[1] !== '') };
}

export function list(items: readonly Text[], ordered = false): Block {
  return { kind: 'list', items, ordered };
}

/** A table, or a sentence saying there is nothing to show. */
export function table(
  caption: string,
  head: readonly string[],
  rows: readonly (readonly Text[])[],
  empty: string,
  numeric: readonly number[] = [],
  digests: readonly number[] = [],
): Block {
  return rows.length ? { kind: 'table', caption, head, rows, numeric, digests } : paragraph(empty);
}

/** The latest of some ISO timestamps (records' updatedAt), or null. */
export function latest(...stamps: (string | null | undefined)[]): string | null {
  let max: string | null = null;
  for (const s of stamps) if (s && (max === null || s > max)) max = s;
  return max;
}

/** At most `max` characters, cut at a word and marked with an ellipsis. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

export const day = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : '—');

/** A meeting's start in Chicago time, e.g. "2023-10-12 10:00 (Chicago)". */
export function chicagoTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const v = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${v('year')}-${v('month')}-${v('day')} ${v('hour')}:${v('minute')} Chicago time`;
}

export const percent = (share: number | null): string => (share === null ? '—' : `${(share * 100).toFixed(1)} %`);

/** "$1,234.50" from a decimal string. */
export function money(amount: string): string {
  const [whole, cents = '00'] = amount.replace(/^-/, '').split('.');
  return `${amount.startsWith('-') ? '−' : ''}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** A path with its query, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}
