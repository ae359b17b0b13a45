// /account/follows: the person's own follows (bills, people, committees, searches) with their
// alerts on each, changed or removed in place. Every form performs the same operations as v2's
// `/me/follows` and `/me/follows/{id}/alerts`, as the person's own session actor.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { performer } from '../dashboard/records.ts';
import { all } from '../dashboard/viewer.ts';
import { applyAlertForm, emailSelect } from './alert-form.ts';
import { field } from './form.ts';
import { csrfField, errorBox, formatTime, page, sendPage } from './layout.ts';
import { requireCsrf, type SignedIn, signedIn } from './security.ts';
import { viewerOf } from './signin-pages.ts';

const publicPath: Record<string, (ref: string) => string> = {
  legislation: (r) => `/matters/${encodeURIComponent(r)}`,
  person: (r) => `/people/${encodeURIComponent(r)}`,
  body: (r) => `/bodies/${encodeURIComponent(r)}`,
  search: (r) => `/search?q=${encodeURIComponent(r)}`,
};
const typeNames: Record<string, string> = { legislation: 'Bill', person: 'Person', body: 'Committee', search: 'Search' };

export function followsPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, error: string | null, status: number) {
    const perform = performer(ctx, session.actor);
    const follows = await all<teamSchemas.FollowOut>((cursor) => perform('me.follows.list', { limit: 200, ...(cursor ? { cursor } : {}) }));
    const token = session.csrfToken;
    const rows = await Promise.all(
      follows.map(async (f) => {
        const alerts = await perform('me.follows.alerts.read', { id: f.id });
        const base = `/account/follows/${encodeURIComponent(f.id)}`;
        return html`<tr id="follow-${f.id}"><td>${typeNames[f.type]}</td><td><a href="${publicPath[f.type]!(f.refId)}">${f.label}</a><br><span class="muted">since ${formatTime(f.createdAt)}</span></td>
<td><form method="post" action="${base}/alerts">${csrfField(token)}${emailSelect(alerts.email?.frequency ?? 'off', `Email alerts for ${f.label}`)}
<label><input type="checkbox" name="webhook" value="on" ${alerts.webhook ? 'checked' : ''}> Webhook</label><button type="submit">Save alerts</button></form>
${alerts.pending ? html`<span class="muted">${alerts.pending} waiting for your next digest</span>` : ''}</td>
<td><form method="post" action="${base}/remove">${csrfField(token)}<button type="submit" aria-label="Unfollow ${f.label}">Unfollow</button></form></td></tr>`;
      }),
    );
    const body = html`${errorBox(error)}
<p>What you follow yourself, and how you hear about it. Your teams' follows are on each team's dashboard. Follow a bill, a person or a committee from its page with “Follow (just me)”.</p>
${
  rows.length
    ? html`<table><caption>Your follows</caption><thead><tr><th>Kind</th><th>Follows</th><th>Alerts</th><th><span class="muted">Remove</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>You follow nothing yet.</p>`
}
<h2>Follow a search</h2>
<form method="post" action="/account/follows">${csrfField(token)}<input type="hidden" name="type" value="search">
<label>Search words <input name="refId" required maxlength="200"></label><button type="submit">Follow this search</button></form>
<p>Email alerts go to ${session.actor.account.email}; webhooks to your <a href="/account/webhooks">webhook endpoints</a>.</p>`;
    return sendPage(reply, status, page('Your follows', viewerOf(request), body));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    app.get('/account/follows', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return render(request, reply, session, null, 200);
    });
    /** A form's change: back to the list (303), or the list with the refusal and its status. */
    const change = (path: string, run: (session: SignedIn, body: unknown, id: string) => Promise<unknown>) =>
      app.post(path, { preHandler: csrf }, async (request, reply) => {
        const session = signedIn(request, reply)!;
        const { id } = (request.params ?? {}) as { id?: string };
        try {
          await run(session, request.body, id ?? '');
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          return render(request, reply, session, err.message, err.status);
        }
        return reply.redirect(`/account/follows${id ? `#follow-${encodeURIComponent(id)}` : ''}`, 303);
      });
    change('/account/follows', (session, body) =>
      performer(ctx, session.actor)('me.follows.create', { type: field(body, 'type') as 'legislation', refId: field(body, 'refId') }),
    );
    change('/account/follows/:id/remove', (session, _body, id) => performer(ctx, session.actor)('me.follows.delete', { id }));
    change('/account/follows/:id/alerts', (session, body, id) => {
      const perform = performer(ctx, session.actor);
      return applyAlertForm(
        {
          read: () => perform('me.follows.alerts.read', { id }),
          set: (email, webhook) => perform('me.follows.alerts.set', { id, email, webhook }),
          clear: () => perform('me.follows.alerts.clear', { id }),
        },
        body,
      );
    });
  };
}
