// The open pages (wards, API docs) in the site's one shell (web/shell.ts): semantic HTML that works without JavaScript, a
// skip link, title, description and OpenGraph tags, and `<link rel="alternate">` to a page's
// Markdown variant and feeds. Every value goes through hono/html's `html`, which escapes it.
import { html } from 'hono/html';
import { type Html, sitePage } from '../web/shell.ts';

export type { Html };

export interface ShellOptions {
  title: string;
  description: string;
  /** The page's path; with the base URL it makes the canonical and OpenGraph URL. */
  path: string;
  baseUrl: string;
  /** Alternates: the Markdown variant, feeds. */
  alternates?: { type: string; href: string; title: string }[];
  /** Extra elements for the head (a viewer's stylesheet). */
  head?: Html;
}

/** What every open page's head says of it: charset, viewport, title, description, canonical address, OpenGraph and alternates. */
export function pageHead(o: Pick<ShellOptions, 'title' | 'description' | 'path' | 'baseUrl' | 'alternates'>): Html {
  const url = `${o.baseUrl}${o.path}`;
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Council Tracker</title>
<meta name="description" content="${o.description}">
<link rel="canonical" href="${url}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Council Tracker">
<meta property="og:title" content="${o.title}">
<meta property="og:description" content="${o.description}">
<meta property="og:url" content="${url}">
${(o.alternates ?? []).map((a) => html`<link rel="alternate" type="${a.type}" href="${a.href}" title="${a.title}">\n`)}`;
}

export function shell(o: ShellOptions, body: Html | Html[]): Html {
  return sitePage({ head: html`${pageHead(o)}${o.head ?? ''}`, path: o.path, person: null, main: html`<h1>${o.title}</h1>\n${body}` });
}
