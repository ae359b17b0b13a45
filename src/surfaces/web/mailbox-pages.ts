// The outbox at /dev/mailbox (decisions.md, "Running it"): without SMTP_URL, mail is kept in
// memory and shown here outside production, as an HTML page and as JSON. In production the pages
// do not exist, because the outbox holds other people's sign-in links; elsewhere they answer
// only callers on this machine that name this service's host. Every route under /dev/ belongs in
// this plugin, behind its hook.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { isInRanges } from '../../kernel/ip.ts';
import { namesServedHost, servedHostnames } from '../http/host-names.ts';
import { page, sendPage } from './layout.ts';
import { viewerOf } from './signin-pages.ts';

/** Loopback: 127.0.0.0/8 and ::1 (an IPv4-mapped ::ffff:127.x counts as IPv4). */
const loopback = ['127.0.0.0/8', '::1'];

export function mailboxPages(ctx: AppContext) {
  const mailer = ctx.services.mailer;
  const open = ctx.config.nodeEnv !== 'production';
  const hostnames = servedHostnames(ctx.config.baseUrl);

  function json(reply: FastifyReply) {
    return reply.header('Cache-Control', 'no-store').send({ transport: mailer.transport, messages: mailer.outbox() });
  }

  async function htmlPage(request: FastifyRequest, reply: FastifyReply) {
    const messages = mailer.outbox();
    const note =
      mailer.transport === 'smtp'
        ? html`<p>SMTP_URL is set: mail is sent over SMTP and not kept here.</p>`
        : html`<p>No SMTP_URL is set, so mail stays here (newest first, the last 100). <a href="/dev/mailbox.json">JSON</a></p>`;
    const items = messages.map((m) => html`<article><h2>${m.subject}</h2><p>To ${m.to} · from ${m.from} · ${m.sentAt}</p><pre>${m.text}</pre></article>`);
    return sendPage(reply, 200, page('Mailbox (development)', viewerOf(request), html`${note}${messages.length ? items : html`<p>No mail yet.</p>`}`));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    if (!open) return;
    // The outbox holds everyone's sign-in links, and HOST defaults to 0.0.0.0: only a caller on
    // this machine may read it. The TCP peer decides, never X-Forwarded-For, which anyone can
    // send (so not TRUST_PROXY either). A page in this machine's browser may be one of a DNS
    // rebinding attacker's, connecting from loopback under the attacker's host name: the Host header
    // must name BASE_URL's host or a loopback name. Anyone else gets the 404 of a page that does not exist.
    app.addHook('onRequest', async (request, reply) => {
      if (!isInRanges(request.raw.socket.remoteAddress ?? '', loopback) || !namesServedHost(request.headers.host, hostnames)) return reply.callNotFound();
    });
    app.get('/dev/mailbox.json', async (_request, reply) => json(reply));
    app.get('/dev/mailbox', async (request, reply) => {
      const accept = String(request.headers.accept ?? '');
      if (accept.includes('application/json') && !accept.includes('text/html')) return json(reply);
      return htmlPage(request, reply);
    });
  };
}
