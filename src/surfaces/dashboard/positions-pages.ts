// Positions: the team's stances with their labels (the same rows as the Legislation stances).
// Owners and admins relabel, change or remove one; history is written with source 'dashboard'.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { picked, picker, prefill } from '../pages/picker.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

export function positionsPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const list = await section(() => all<teamSchemas.PositionOut>((cursor) => v.perform('team.positions.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/positions`;
    const row = (p: teamSchemas.PositionOut) => html`<tr id="position-${p.id}" data-record="${p.recordId}">
<td><a href="/matters/${encodeURIComponent(p.recordId)}"><strong>${p.recordId}</strong></a></td><td>${stanceText(p.stance)}</td><td>${p.label}</td><td>${formatTime(p.updatedAt)}</td>
<td>${
      v.may('team.positions.upsert')
        ? html`<form method="post" action="${base}" data-live-form>${csrfField(token)}<input type="hidden" name="record" value="${p.recordId}">
<select name="stance" aria-label="Stance on ${p.recordId}"><option value="supports" ${p.stance === 'supports' ? 'selected' : ''}>Supports</option><option value="opposes" ${p.stance === 'opposes' ? 'selected' : ''}>Opposes</option></select>
<input name="label" value="${p.label}" maxlength="200" aria-label="Label"><button type="submit">Save</button></form>
<form method="post" action="${base}/${encodeURIComponent(p.id)}/remove" data-live-form>${csrfField(token)}<button type="submit">Remove</button></form>`
        : ''
    }</td></tr>`;
    const region = !list.ok
      ? notice(list.message)
      : html`${v.may('team.positions.upsert') ? '' : notice('Only team owners and admins can change positions.')}
${list.value.length ? html`<table><thead><tr><th>Bill</th><th>Stance</th><th>Label</th><th>Updated</th><th></th></tr></thead><tbody>${list.value.map(row)}</tbody></table>` : html`<p>No positions yet.</p>`}
${
  v.may('team.positions.upsert')
    ? html`<h2>Add a position</h2><form method="post" action="${base}" data-live-form>${csrfField(token)}
${picker({ name: 'record', id: 'pick-position', types: ['matter'], label: 'Bill', required: true, returnTo: base, ...prefill(request.query, 'record') })}
<label>Stance <select name="stance"><option value="supports">Supports</option><option value="opposes">Opposes</option></select></label>
<label>Label <input name="label" maxlength="200"></label><button type="submit">Add position</button></form>`
    : ''
}`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'positions', 'Positions', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, s: PageState, status: number) => render(request, reply, v, s, status);
    app.get('/dashboard/:teamId/positions', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    app.post('/dashboard/:teamId/positions', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/positions`, async () => {
        const position = {
          recordId: (await picked((input) => v.perform('search.read', input), request.body, 'record', ['matter']))!,
          stance: field(request.body, 'stance') as 'supports',
          label: field(request.body, 'label').trim(),
        };
        return v.perform('team.positions.upsert', { positions: [position] });
      });
    });
    app.post('/dashboard/:teamId/positions/:id/remove', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/positions`, () => v.perform('team.positions.delete', { id }));
    });
  };
}
