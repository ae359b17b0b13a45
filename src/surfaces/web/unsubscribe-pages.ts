// The unsubscribe link of alert emails: it needs no sign-in. GET only shows what the link is for
// and a button, because mail scanners and link previews open links by themselves; POST turns the
// email off. The same POST is the one-click unsubscribe of RFC 8058: a mail client POSTs
// `List-Unsubscribe=One-Click` to the List-Unsubscribe URI, as application/x-www-form-urlencoded
// or multipart/form-data (§3.2), with no cookies; the token in the URI is the only authority, so
// the form needs no CSRF token (no session is involved, and the token is the secret).
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { noticeBox, page, sendPage } from './layout.ts';
import { viewerOf } from './signin-pages.ts';

const MAX_TOKEN = 200;

export function unsubscribePages(ctx: AppContext) {
  const { alerts } = ctx.services;
  return async function routes(app: FastifyInstance): Promise<void> {
    // RFC 8058 §3.2 allows multipart/form-data; its content is not needed (the URI says it all),
    // so it is read as text within the body limit and ignored. This parser is local to these routes.
    app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, async () => ({}));
    const params = { type: 'object', properties: { token: { type: 'string', minLength: 1, maxLength: MAX_TOKEN } }, required: ['token'] } as const;

    app.get('/alerts/unsubscribe/:token', { schema: { params } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const target = await alerts.service.unsubscribeTarget(token);
      const body = target.emailOn
        ? html`<p>Stop the alert emails about <strong>${target.followLabel}</strong>?</p>
<form method="post" action="/alerts/unsubscribe/${encodeURIComponent(token)}"><button type="submit">Unsubscribe</button></form>`
        : html`${noticeBox(`You already get no alert emails about ${target.followLabel}.`)}`;
      return sendPage(reply, 200, page('Unsubscribe from alerts', viewerOf(request), body));
    });

    app.post('/alerts/unsubscribe/:token', { schema: { params } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const done = await alerts.service.unsubscribe(token);
      const body = html`${noticeBox(`You will get no more alert emails about ${done.followLabel}.`)}
<p>To turn them on again, sign in and set the follow's alerts, or use the API.</p>`;
      return sendPage(reply, 200, page('Unsubscribed', viewerOf(request), body));
    });
  };
}
