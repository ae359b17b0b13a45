// A team follow's own page: what it follows, the signed-in member's alerts on it (a form: email
// off, immediately, daily or weekly, and/or webhook — each member subscribes for themselves) and their recent
// deliveries: what was sent, when, and how it went. The form performs the same alerts operations
// as v2's `/team/follows/{id}/alerts`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { alertChoices, applyAlertForm } from '../web/alert-form.ts';
import { csrfField, formatTime } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { type TeamViewer, teamViewer } from './viewer.ts';

export function followAlertsPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, id: string, state: PageState, status: number) {
    const alerts = await v.perform('team.follows.alerts.read', { id });
    const base = `${teamBase(v.teamId)}/follows/${encodeURIComponent(id)}`;
    const current = alerts.email?.frequency ?? 'off';
    const deliveries = alerts.deliveries.length
      ? html`<table><thead><tr><th>Queued</th><th>Sent</th><th>How</th><th>Status</th><th>What</th></tr></thead><tbody>
${alerts.deliveries.map(
  (d) => html`<tr><td>${formatTime(d.createdAt)}</td><td>${formatTime(d.sentAt)}</td><td>${d.channel}${d.frequency ? ` (${d.frequency})` : ''}</td>
<td>${d.status}${d.attempts > 1 ? ` after ${d.attempts} attempts` : ''}${d.error ? html`<br><span class="muted">${d.error}</span>` : ''}</td>
<td><ul>${d.items.map((i) => html`<li><a href="${i.url}">${i.title}</a>${i.date ? ` (${i.date})` : ''}</li>`)}</ul></td></tr>`,
)}</tbody></table>`
      : html`<p>No alerts sent to you for this follow yet.</p>`;
    const region = html`<p><a href="${teamBase(v.teamId)}/follows">All follows</a></p>
<h2>Your alerts</h2>
<p>Email when this changes: a bill's new actions and roll calls, a person's votes and new legislation naming them, a committee's meetings, new matches of a search. Only you get them; every member chooses their own.</p>
<form method="post" action="${base}/alerts" data-live-form>${csrfField(v.csrfToken)}
<fieldset><legend>Email</legend>
${alertChoices.map(([value, label]) => html`<label><input type="radio" name="email" value="${value}" ${value === current ? 'checked' : ''}> ${label}</label>`)}
</fieldset>
<label><input type="checkbox" name="webhook" value="on" ${alerts.webhook ? 'checked' : ''}> Also send each change as a signed <code>follow.changed</code> event to your webhook endpoints (<a href="/account/webhooks">Settings → Webhooks</a>)</label>
<button type="submit">Save</button></form>
${alerts.pending ? notice(`${alerts.pending} change${alerts.pending === 1 ? '' : 's'} waiting for your next digest.`) : ''}
<h2>Deliveries</h2>
${deliveries}`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'follows', `Follow: ${alerts.label}`, region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    app.get('/dashboard/:teamId/follows/:id', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      const { id } = request.params as { id: string };
      return render(request, reply, v, id, {}, 200);
    });
    app.post('/dashboard/:teamId/follows/:id/alerts', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      const again = (viewer: TeamViewer, s: PageState, status: number) => render(request, reply, viewer, id, s, status);
      return act(v, reply, again, `${teamBase(v.teamId)}/follows/${encodeURIComponent(id)}`, () =>
        applyAlertForm(
          {
            read: () => v.perform('team.follows.alerts.read', { id }),
            set: (email, webhook) => v.perform('team.follows.alerts.set', { id, email, webhook }),
            clear: () => v.perform('team.follows.alerts.clear', { id }),
          },
          request.body,
        ),
      );
    });
  };
}
