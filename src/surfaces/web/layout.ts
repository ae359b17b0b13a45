// The page shell of the signed-in website and how a page is sent. Pages are plain HTML that works
// without JavaScript; every value goes through hono/html's `html` template, which escapes it.
import type { FastifyReply } from 'fastify';
import { html } from 'hono/html';
import { STRICT_PAGE_CSP } from '../http/security-headers.ts';

export type Html = ReturnType<typeof html>;

export interface Viewer {
  email: string;
  csrfToken: string;
}

/** The site's stylesheet (inline: pages load nothing else); the public pages add to it. */
export const style = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:0 1rem 3rem;color:#1b1b1b}
header{display:flex;gap:1rem;align-items:center;justify-content:space-between;border-bottom:1px solid #ccc;padding:.5rem 0;margin-bottom:1rem}
header form{display:inline}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
.error{background:#fde8e8;border:1px solid #c00;padding:.6rem 1rem}
.notice{background:#e8f4fd;border:1px solid #06c;padding:.6rem 1rem}
.secret{font:1.1rem monospace;background:#fffbe6;border:1px solid #c90;padding:.6rem 1rem;word-break:break-all}
fieldset{margin:1rem 0}label{display:block;margin:.3rem 0}code{font-size:.9em}
details{margin:.3rem 0}button{cursor:pointer}
`;

/** The hidden CSRF field every form carries (checked by security.ts on every POST). */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function page(title: string, viewer: Viewer | null, body: Html | Html[]): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Council Tracker</title>
${viewer ? html`<meta name="csrf-token" content="${viewer.csrfToken}">` : ''}
<style>${style}</style>
</head>
<body>
<header>
  <a href="/account">Council Tracker</a>
  ${
    viewer
      ? html`<span>Signed in as ${viewer.email}
  <form method="post" action="/signout">${csrfField(viewer.csrfToken)}<button type="submit">Sign out</button></form></span>`
      : html`<a href="/signin">Sign in</a>`
  }
</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

export function errorBox(message: string | null | undefined): Html | string {
  return message ? html`<p class="error" role="alert">${message}</p>` : '';
}

export function noticeBox(message: string | null | undefined): Html | string {
  return message ? html`<p class="notice" role="status">${message}</p>` : '';
}

/**
 * Sends a page. Pages about a person are never stored by any cache; the security headers of every
 * HTML answer (no framing, no Referer leaving the site) are set by surfaces/http/security-headers.ts,
 * with `csp` as this page's Content-Security-Policy.
 */
export async function sendPage(reply: FastifyReply, status: number, content: Html, csp: string = STRICT_PAGE_CSP): Promise<FastifyReply> {
  reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Content-Security-Policy', csp);
  return reply.send(String(await content));
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
