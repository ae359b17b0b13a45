// Notes shared with the team, with their subjects (a bill, person, meeting or body). Any member
// writes one; only its author edits or deletes it (the service decides, as on v2).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { teamSchemas } from '../../modules/team-data/index.ts';
import { type PickType, picked, picker, prefill, type Search } from '../pages/picker.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

const subjectNames: Record<string, string> = { matter: 'Bill', person: 'Person', meeting: 'Meeting', body: 'Body' };

const subjectPicks: PickType[] = [...teamSchemas.subjectTypes];

/** The note's subject from the form's picker (`type:ref`), or none when it was left empty. */
async function subjectOf(search: Search, body: unknown): Promise<{ type: 'matter'; refId: string } | null> {
  const value = await picked(search, body, 'subject', subjectPicks, false);
  if (!value) return null;
  const cut = value.indexOf(':');
  return { type: value.slice(0, cut) as 'matter', refId: value.slice(cut + 1) };
}

function subjectFields(id: string, current: teamSchemas.NoteOut['subject'], returnTo: string, query: unknown = {}): Html {
  const value = current ? `${current.type}:${current.refId}` : undefined;
  const text = current ? `${subjectNames[current.type]} ${current.refId}` : undefined;
  return picker({
    name: 'subject',
    id,
    types: subjectPicks,
    label: 'About (optional): a bill, person, meeting or committee',
    value,
    text,
    returnTo,
    ...prefill(query, 'subject'),
  });
}

const searchFor =
  (v: TeamViewer): Search =>
  (input) =>
    v.perform('search.read', input);

export function notesPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const list = await section(() => all<teamSchemas.NoteOut>((cursor) => v.perform('team.notes.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/notes`;
    const item = (n: teamSchemas.NoteOut) => html`<article id="note-${n.id}" class="note">
<p>${n.body}</p>
<p class="muted">${n.subject ? html`About ${subjectNames[n.subject.type]} <a href="${teamBase(v.teamId)}/records/${n.subject.type}/${encodeURIComponent(n.subject.refId)}"><strong>${n.subject.refId}</strong></a> · ` : ''}by ${n.authorName ?? 'a former member'} · ${formatTime(n.createdAt)}${n.updatedAt !== n.createdAt ? html` · edited ${formatTime(n.updatedAt)}` : ''}</p>
${
  n.yours
    ? html`<details><summary>Edit</summary><form method="post" action="${base}/${encodeURIComponent(n.id)}" data-live-form>${csrfField(token)}
<label>Note <textarea name="body" rows="3" maxlength="${teamSchemas.MAX_NOTE}" required>${n.body}</textarea></label>${subjectFields(`pick-subject-${n.id}`, n.subject, base)}
<button type="submit">Save</button></form></details>
<form method="post" action="${base}/${encodeURIComponent(n.id)}/delete" data-live-form>${csrfField(token)}<button type="submit">Delete</button></form>`
    : ''
}<hr></article>`;
    const region = !list.ok
      ? notice(list.message)
      : html`${list.value.length ? [...list.value].reverse().map(item) : html`<p>No notes yet.</p>`}
<h2>Write a note</h2><form method="post" action="${base}" data-live-form>${csrfField(token)}
<label>Note <textarea name="body" rows="3" maxlength="${teamSchemas.MAX_NOTE}" required></textarea></label>${subjectFields('pick-subject', null, base, request.query)}
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
      return act(v, reply, again(request, reply), back(v), async () =>
        v.perform('team.notes.create', { body: field(request.body, 'body'), subject: await subjectOf(searchFor(v), request.body) }),
      );
    });
    app.post('/dashboard/:teamId/notes/:id', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), back(v), async () =>
        v.perform('team.notes.update', { id, change: { body: field(request.body, 'body'), subject: await subjectOf(searchFor(v), request.body) } }),
      );
    });
    app.post('/dashboard/:teamId/notes/:id/delete', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { id } = request.params as { id: string };
      return act(v, reply, again(request, reply), back(v), () => v.perform('team.notes.delete', { id }));
    });
  };
}
