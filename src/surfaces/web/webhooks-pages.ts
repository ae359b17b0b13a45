// Account settings → Webhooks (add an https endpoint, its signing secret shown once, delete; the
// recent deliveries with every attempt) and → Security log (credential events, newest first). The
// webhook forms perform the webhooks operations (modules/webhooks/operations.ts) as the signed-in
// person, like every surface.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { OperationOutput } from '../../catalogue.ts';
import { field } from './form.ts';
import { csrfField, errorBox, formatTime, type Html, page, sendPage } from './layout.ts';
import { requireCsrf, type SignedIn, signedIn } from './security.ts';
import { pagePerformer, personalViewer } from './settings-viewer.ts';
import { viewerOf } from './signin-pages.ts';

interface WebhookPageState {
  error?: string;
  url?: string;
  created?: { url: string; secret: string };
}

type Deliveries = OperationOutput<'me.webhooks.deliveries'>['data'];

function secretBox(url: string, secret: string): Html {
  return html`<div class="notice" role="status">
  <p>Events will be sent to <strong>${url}</strong>, signed with the secret below. Copy it now: it is shown only this once.</p>
  <p class="secret"><code>${secret}</code></p>
  <p>Each request carries the Standard Webhooks headers <code>webhook-id</code>, <code>webhook-timestamp</code> and
  <code>webhook-signature</code> (<code>v1,</code> + base64 HMAC-SHA256 of <code>id.timestamp.body</code> keyed by the secret's bytes after <code>whsec_</code>).</p>
</div>`;
}

function deliveriesTable(deliveries: Deliveries, urls: Map<string, string>): Html {
  if (deliveries.length === 0) return html`<p>No deliveries yet.</p>`;
  return html`<table><thead><tr><th>Event</th><th>Endpoint</th><th>Status</th><th>Attempts</th></tr></thead><tbody>
${deliveries.map(
  (d) => html`<tr><td><code>${d.eventType}</code><br><small>${d.eventId}</small></td>
<td>${urls.get(d.endpointId) ?? ''}</td><td>${d.status}</td>
<td><ol>${d.attempts.map(
    (a) => html`<li>${formatTime(a.at)}: ${a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`}${a.error ? html` — ${a.error}` : ''}</li>`,
  )}</ol></td></tr>`,
)}</tbody></table>`;
}

export function webhooksPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: WebhookPageState, status: number) {
    const p = pagePerformer(ctx, session.actor);
    const token = session.csrfToken;
    const [{ data: endpoints }, { data: deliveries }] = await Promise.all([p.perform('me.webhooks.list', {}), p.perform('me.webhooks.deliveries', {})]);
    const urls = new Map(endpoints.map((e) => [e.id, e.url]));
    const list = endpoints.length
      ? html`<table><thead><tr><th>URL</th><th>Secret</th><th>Added</th><th></th></tr></thead><tbody>
${endpoints.map(
  (e) => html`<tr><td>${e.url}</td><td><code>${e.secretPrefix}…</code></td><td>${formatTime(e.createdAt)}</td>
<td><form method="post" action="/account/webhooks/${e.id}/delete">${csrfField(token)}<button type="submit">Delete</button></form></td></tr>`,
)}</tbody></table>`
      : html`<p>No webhook endpoints yet.</p>`;
    const body = html`${errorBox(state.error)}
${state.created ? secretBox(state.created.url, state.created.secret) : ''}
<p><a href="/account">← Your account</a> · <a href="/account/security">Security log</a></p>
<p>Your account's events (<code>credential.issued</code>, <code>credential.revoked</code>) are sent to each endpoint, signed, and retried with growing delays until it answers 2xx.</p>
<h2>Endpoints</h2>
${list}
<h2>Add an endpoint</h2>
<form method="post" action="/account/webhooks">${csrfField(token)}
  <label>https URL <input type="url" name="url" value="${state.url ?? ''}" required maxlength="2048" placeholder="https://example.com/hooks/council"></label>
  <button type="submit">Add endpoint</button>
</form>
<h2>Recent deliveries</h2>
${deliveriesTable(deliveries, urls)}`;
    return sendPage(reply, status, page('Webhooks', viewerOf(request), body));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);

    app.get('/account/webhooks', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return render(request, reply, session, {}, 200);
    });

    app.post('/account/webhooks', { preHandler: csrf }, async (request, reply) => {
      const session = signedIn(request, reply)!;
      const url = field(request.body, 'url');
      try {
        const added = await pagePerformer(ctx, session.actor).perform('me.webhooks.create', { url });
        return render(request, reply, session, { created: { url: added.endpoint.url, secret: added.secret } }, 201);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return render(request, reply, session, { error: err.message, url }, err.status);
      }
    });

    app.post('/account/webhooks/:endpointId/delete', { preHandler: csrf }, async (request, reply) => {
      const session = signedIn(request, reply)!;
      const { endpointId } = request.params as { endpointId: string };
      await pagePerformer(ctx, session.actor).perform('me.webhooks.delete', { id: endpointId });
      return reply.redirect('/account/webhooks', 303);
    });

    app.get('/account/security', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      const { data: entries } = await personalViewer(ctx, session).perform('me.security.read', { limit: 100 });
      const body = html`<p><a href="/account">← Your account</a> · <a href="/account/webhooks">Webhooks</a></p>
<p>Every credential issued to or revoked from your account, newest first.</p>
${
  entries.length
    ? html`<table><thead><tr><th>When</th><th>Event</th><th>What happened</th></tr></thead><tbody>
${entries.map((e) => html`<tr><td>${formatTime(e.occurredAt)}</td><td><code>${e.type}</code></td><td>${e.summary}</td></tr>`)}</tbody></table>`
    : html`<p>Nothing yet.</p>`
}`;
      return sendPage(reply, 200, page('Security log', viewerOf(request), body));
    });
  };
}
