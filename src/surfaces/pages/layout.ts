// The public pages in the site's one shell (web/shell.ts), with what a public page needs
// besides — description and OpenGraph tags, the canonical address, the Markdown variant and Atom
// feeds as alternates, a skip link, the site navigation, and a footer naming the sources. The
// shell is the same for every visitor: it shows no one's name, so a page may be stored by any
// cache (see page-route.ts).
import { html, raw } from 'hono/html';
import { type Html, sitePage } from '../web/shell.ts';
import type { PageModel } from './model.ts';
import { actPanel, actSubject } from './act-panel.ts';
import { pageHead } from './public-shell.ts';
import { blocksHtml } from './render-html.ts';

/** The whole HTML page of a view model; `base` is BASE_URL (canonical and OpenGraph addresses are absolute). */
export function publicPage(model: PageModel, base: string): Html {
  const mdPath = markdownPath(model.path);
  const alternates = [
    { type: 'text/markdown', href: mdPath, title: 'This page in Markdown' },
    ...model.feeds.map((f) => ({ type: 'application/atom+xml', href: f.href, title: f.text })),
  ];
  const subject = actSubject(model.path);
  return sitePage({
    head: pageHead({ title: model.title, description: model.description, path: model.path, baseUrl: base, alternates }),
    path: model.path,
    person: null,
    main: html`<h1>${model.title}</h1>
${blocksHtml(model.blocks.slice(0, 1))}
${subject ? actPanel(subject, model.title) : ''}
${model.figure ? raw(model.figure.html) : ''}
${blocksHtml(model.blocks.slice(1))}`,
    footer: html`<a href="${mdPath}">This page in Markdown</a>${model.feeds.map((f) => html` · <a href="${f.href}">${f.text} (Atom)</a>`)} ·`,
    scripts: subject ? ['/assets/act.js'] : [],
  });
}

/** The Markdown variant's path: `/` → `/index.md`, `/matters?q=x` → `/matters.md?q=x`. */
export function markdownPath(path: string): string {
  const q = path.indexOf('?');
  const [p, rest] = q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q)];
  return `${p === '/' ? '/index' : p}.md${rest}`;
}
