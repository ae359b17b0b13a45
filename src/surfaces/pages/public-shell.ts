// The shell of the open pages (wards, API docs): semantic HTML that works without JavaScript, a
// skip link, title, description and OpenGraph tags, and `<link rel="alternate">` to a page's
// Markdown variant and feeds. Every value goes through hono/html's `html`, which escapes it.
import { html } from 'hono/html';

export type Html = ReturnType<typeof html>;

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

const style = `
body{font:16px/1.5 system-ui,sans-serif;max-width:62rem;margin:0 auto;padding:0 1rem 3rem;color:#1b1b1b;background:#fff}
a{color:#0b4f9c}a:focus{outline:2px solid #000;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header,footer{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;border-bottom:1px solid #ccc;padding:.5rem 0;margin-bottom:1rem}
footer{border-top:1px solid #ccc;border-bottom:0;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:left}
label{display:block;margin:.3rem 0}input{font:inherit;padding:.2rem}button{font:inherit;cursor:pointer}
pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}code{font-size:.9em}
.error{background:#fde8e8;border:1px solid #c00;padding:.6rem 1rem}.notice{background:#e8f4fd;border:1px solid #06c;padding:.6rem 1rem}
`;

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
  return html`<!doctype html>
<html lang="en">
<head>
${pageHead(o)}
<style>${style}</style>
${o.head ?? ''}
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
<a href="/">Council Tracker</a>
<nav aria-label="Site"><a href="/wards">Wards</a> · <a href="/docs">API docs</a> · <a href="/llms.txt">For agents</a></nav>
</header>
<main id="main">
<h1>${o.title}</h1>
${body}
</main>
<footer><span>Public record of the Chicago City Council.</span> <a href="/llms.txt">llms.txt</a> <a href="/auth.md">Getting a credential</a> <a href="/sitemap.xml">Sitemap</a></footer>
</body>
</html>`;
}
