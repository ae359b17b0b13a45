// The signed-in website's pages in the site's one shell (./shell.ts), and how a page is sent. Pages are plain HTML that works
// without JavaScript; every value goes through hono/html's `html` template, which escapes it.
import type { FastifyReply } from 'fastify';
import { html } from 'hono/html';
import { STRICT_PAGE_CSP } from '../http/security-headers.ts';
import { sitePage } from './shell.ts';

export type Html = ReturnType<typeof html>;

export interface Viewer {
  email: string;
  csrfToken: string;
  /** The person's teams, for the header's Dashboard link or team switcher. */
  teams?: readonly { id: string; name: string }[];
}

/** The hidden CSRF field every form carries (checked by security.ts on every POST). */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function page(title: string, viewer: Viewer | null, body: Html | Html[]): Html {
  return sitePage({
    head: html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Council Tracker</title>
${viewer ? html`<meta name="csrf-token" content="${viewer.csrfToken}">` : ''}`,
    person: viewer ? { email: viewer.email, csrfToken: viewer.csrfToken, teams: viewer.teams ?? [] } : null,
    main: html`<h1>${title}</h1>
${body}`,
  });
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
