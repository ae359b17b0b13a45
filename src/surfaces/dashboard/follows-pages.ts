// Follows: what the team follows (bills, people, committees, searches). Owners and admins add and
// remove them through the team-data service, as v2 does.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { picked, picker, prefill } from '../pages/picker.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

/** The record follows, each with its picker; a search follow takes its query as typed. */
const recordFollows = [
  ['legislation', 'matter', 'Follow a bill', 'Bill'],
  ['person', 'person', 'Follow a person', 'Person'],
  ['body', 'body', 'Follow a committee or the council', 'Committee'],
] as const;

/** The kind of record a follow names, as the team's view of a record spells it. */
const recordTypeOf: Record<string, string> = { legislation: 'matter', person: 'person', body: 'body' };

export function followsPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const list = await section(() => all<teamSchemas.FollowOut>((cursor) => v.perform('team.follows.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    const token = v.csrfToken;
    const query = request.query as Record<string, unknown>;
    const base = `${teamBase(v.teamId)}/follows`;
    const row = (
      f: teamSchemas.FollowOut,
    ) => html`<tr id="follow-${f.id}"><td>${f.type}</td><td>${f.type === 'search' ? f.refId : html`<a href="${teamBase(v.teamId)}/records/${recordTypeOf[f.type]}/${encodeURIComponent(f.refId)}">${f.refId}</a>`}</td><td><a href="${base}/${encodeURIComponent(f.id)}">${f.label}</a></td><td>${formatTime(f.createdAt)}</td>
<td>${v.may('team.follows.create') ? html`<form method="post" action="${base}/${encodeURIComponent(f.id)}/remove" data-live-form>${csrfField(token)}<button type="submit">Unfollow</button></form>` : ''}</td></tr>`;
    const region = !list.ok
      ? notice(list.message)
      : html`${v.may('team.follows.create') ? '' : notice('Only team owners and admins can change what the team follows.')}
${list.value.length ? html`<table><thead><tr><th>Type</th><th>Follows</th><th>Label</th><th>Since</th><th></th></tr></thead><tbody>${list.value.map(row)}</tbody></table>` : html`<p>The team follows nothing yet.</p>`}
${
  v.may('team.follows.create')
    ? html`<h2>Follow something</h2>${recordFollows.map(
        ([
          type,
          pick,
          title,
          label,
        ]) => html`<form method="post" action="${base}" data-live-form class="follow-form">${csrfField(token)}<h3>${title}</h3><input type="hidden" name="type" value="${type}">
${picker({ name: 'refId', id: `pick-follow-${type}`, types: [pick], label, required: true, returnTo: `${base}?type=${type}`, ...(query.type === type ? prefill(query, 'refId') : {}) })}
<label for="label-${type}">Label (optional)</label><input id="label-${type}" name="label" maxlength="200"><button type="submit">Follow</button></form>`,
      )}
<form method="post" action="${base}" data-live-form class="follow-form">${csrfField(token)}<h3>Follow a search</h3><input type="hidden" name="type" value="search">
<label for="follow-search">Search words</label><input id="follow-search" name="query" required maxlength="200">
<label for="label-search">Label (optional)</label><input id="label-search" name="label" maxlength="200"><button type="submit">Follow</button></form>`
    : ''
}`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'follows', 'Follows', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, s: PageState, status: number) => render(request, reply, v, s, status);
    app.get('/dashboard/:teamId/follows', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    app.post('/dashboard/:teamId/follows', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const label = field(request.body, 'label').trim();
      const type = field(request.body, 'type') as 'legislation';
      const pick = recordFollows.find(([t]) => t === type)?.[1];
      return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/follows`, async () => {
        const refId = pick
          ? await picked((input) => v.perform('search.read', input), request.body, 'refId', [pick])
          : field(request.body, 'query') || field(request.body, 'refId');
        return v.perform('team.follows.create', { type, refId: refId ?? '', ...(label ? { label } : {}) });
      });
    });
    app.post('/dashboard/:teamId/follows/:id/remove', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/follows`, () => v.perform('team.follows.delete', { id }));
    });
  };
}
