// Notes shared with the team, with their subjects (a bill, person, meeting or body). Any member
// writes one; only its author edits or deletes it (the service decides, as on v2).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { asAccount } from '../../modules/accounts/index.ts';
import { teamSchemas } from '../../modules/team-data/index.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

const subjectNames: Record<string, string> = { matter: 'Bill', person: 'Person', meeting: 'Meeting', body: 'Body' };

/** The subject fields of a note form: none, or a type and its record number or id. */
function subjectOf(body: unknown): { type: 'matter'; refId: string } | null {
  const type = field(body, 'subjectType');
  const refId = field(body, 'subjectRef').trim();
  if (!type || type === 'none') return null;
  return { type: type as 'matter', refId };
}

function subjectFields(current: teamSchemas.NoteOut['subject']): Html {
  return html`<label>About <select name="subjectType"><option value="none">Nothing in particular</option>${teamSchemas.subjectTypes.map(
    (t) => html`<option value="${t}" ${current?.type === t ? 'selected' : ''}>${subjectNames[t]}</option>`,
  )}</select></label>
<label>Record number or id <input name="subjectRef" value="${current?.refId ?? ''}" maxlength="200"></label>`;
}

export function notesPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const list = await section(() => all<teamSchemas.NoteOut>((cursor) => v.perform('team.notes.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    const team = await ctx.services.accounts.teams.get(asAccount(v.actor.account.id), v.teamId);
    const names = new Map(team.members.map((m) => [m.accountId, m.name ?? m.email]));
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/notes`;
    const me = v.actor.account.id;
    const item = (n: teamSchemas.NoteOut) => html`<article id="note-${n.id}" class="note">
<p>${n.body}</p>
<p class="muted">${n.subject ? html`About ${subjectNames[n.subject.type]} <a href="${teamBase(v.teamId)}/records/${n.subject.type}/${encodeURIComponent(n.subject.refId)}"><strong>${n.subject.refId}</strong></a> · ` : ''}by ${names.get(n.authorId) ?? 'a former member'} · ${formatTime(n.createdAt)}${n.updatedAt !== n.createdAt ? html` · edited ${formatTime(n.updatedAt)}` : ''}</p>
${
  n.authorId === me
    ? html`<details><summary>Edit</summary><form method="post" action="${base}/${encodeURIComponent(n.id)}" data-live-form>${csrfField(token)}
<label>Note <textarea name="body" rows="3" maxlength="${teamSchemas.MAX_NOTE}" required>${n.body}</textarea></label>${subjectFields(n.subject)}
<button type="submit">Save</button></form></details>
<form method="post" action="${base}/${encodeURIComponent(n.id)}/delete" data-live-form>${csrfField(token)}<button type="submit">Delete</button></form>`
    : ''
}<hr></article>`;
    const region = !list.ok
      ? notice(list.message)
      : html`${list.value.length ? [...list.value].reverse().map(item) : html`<p>No notes yet.</p>`}
<h2>Write a note</h2><form method="post" action="${base}" data-live-form>${csrfField(token)}
<label>Note <textarea name="body" rows="3" maxlength="${teamSchemas.MAX_NOTE}" required></textarea></label>${subjectFields(null)}
<button type="submit">Add note</button></form>`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'notes', 'Notes', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, s: PageState, status: number) => render(request, reply, v, s, status);
    const back = (v: TeamViewer) => `${teamBase(v.teamId)}/notes`;
    app.get('/dashboard/:teamId/notes', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    app.post('/dashboard/:teamId/notes', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      return act(v, reply, again(request, reply), back(v), () =>
        v.perform('team.notes.create', { body: field(request.body, 'body'), subject: subjectOf(request.body) }),
      );
    });
    app.post('/dashboard/:teamId/notes/:id', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), back(v), () =>
        v.perform('team.notes.update', { id, change: { body: field(request.body, 'body'), subject: subjectOf(request.body) } }),
      );
    });
    app.post('/dashboard/:teamId/notes/:id/delete', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), back(v), () => v.perform('team.notes.delete', { id }));
    });
  };
}
