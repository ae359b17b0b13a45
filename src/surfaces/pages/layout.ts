// The shell of the public pages: the site's style (web/layout.ts) with what a public page needs
// besides — description and OpenGraph tags, the canonical address, the Markdown variant and Atom
// feeds as alternates, a skip link, the site navigation, and a footer naming the sources. The
// shell is the same for every visitor: it shows no one's name, so a page may be stored by any
// cache (see page-route.ts).
import { html, raw } from 'hono/html';
import { type Html, style } from '../web/layout.ts';
import type { PageModel } from './model.ts';
import { pageHead } from './public-shell.ts';
import { blocksHtml } from './render-html.ts';

const publicStyle = `
.skip{position:absolute;left:-10000px;top:auto}.skip:focus{position:static;display:inline-block;padding:.4rem;background:#fffbe6;border:2px solid #1b1b1b}
a{color:#0b4ea2}a:visited{color:#5b2a86}a:focus,button:focus,input:focus,select:focus{outline:3px solid #c25e00;outline-offset:2px}
header nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem 1rem;margin:0;padding:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
.num{text-align:right;font-variant-numeric:tabular-nums}.scroll{overflow-x:auto}caption{text-align:left;font-weight:600;padding:.3rem 0}
.muted{color:#4a4a4a}.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:1rem 0}.filters label{margin:0}
.filters input,.filters select{display:block;font:inherit;padding:.3rem}.filters button{font:inherit;padding:.35rem .8rem}
footer{border-top:1px solid #ccc;margin-top:2rem;padding-top:.5rem;font-size:.9rem}figure{margin:1rem 0}svg{max-width:100%;height:auto}
`;

const nav: readonly [string, string][] = [
  ['/', 'Home'],
  ['/search', 'Search'],
  ['/matters', 'Legislation'],
  ['/meetings', 'Meetings'],
  ['/people', 'People'],
  ['/money', 'Money'],
  ['/lobbying', 'Lobbying'],
  ['/docs', 'API'],
];

/** The whole HTML page of a view model; `base` is BASE_URL (canonical and OpenGraph addresses are absolute). */
export function publicPage(model: PageModel, base: string): Html {
  const mdPath = markdownPath(model.path);
  const alternates = [
    { type: 'text/markdown', href: mdPath, title: 'This page in Markdown' },
    ...model.feeds.map((f) => ({ type: 'application/atom+xml', href: f.href, title: f.text })),
  ];
  return html`<!doctype html>
<html lang="en">
<head>
${pageHead({ title: model.title, description: model.description, path: model.path, baseUrl: base, alternates })}
<style>${raw(style + publicStyle)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<a href="/"><strong>Council Tracker</strong></a>
<nav aria-label="Site"><ul>${nav.map(([href, text]) => html`<li><a href="${href}"${href === model.path ? raw(' aria-current="page"') : ''}>${text}</a></li>`)}</ul></nav>
<a href="/signin">Sign in</a>
</header>
<main id="main" tabindex="-1">
<h1>${model.title}</h1>
${blocksHtml(model.blocks.slice(0, 1))}
${model.figure ? raw(model.figure.html) : ''}
${blocksHtml(model.blocks.slice(1))}
</main>
<footer>
<p>Public records of the Chicago City Council from the City Clerk (eLMS), the Board of Ethics and the Illinois State Board of Elections.
<a href="${mdPath}">This page in Markdown</a>${model.feeds.length ? html` · ${model.feeds.map((f, i) => html`${i ? ' · ' : ''}<a href="${f.href}">${f.text} (Atom)</a>`)}` : ''} · <a href="/llms.txt">For agents</a></p>
</footer>
</body>
</html>`;
}

/** The Markdown variant's path: `/` → `/index.md`, `/matters?q=x` → `/matters.md?q=x`. */
export function markdownPath(path: string): string {
  const q = path.indexOf('?');
  const [p, rest] = q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q)];
  return `${p === '/' ? '/index' : p}.md${rest}`;
}
