// Target lists (advocacy teams): for each bill the team follows or has a position on, who to
// lobby, who has been contacted, and how each target voted on the bill — the team.targets.board
// operation, the same composed read MCP and GraphQL offer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { picked, picker, prefill } from '../pages/picker.ts';
import { fields } from '../web/form.ts';
import { csrfField, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { type Bill, teamBills } from './legislation-pages.ts';
import { section, type TeamViewer, teamViewer } from './viewer.ts';

/** The people a form adds: chosen ids (the picker, or several `personId` fields), else the typed name resolved. */
async function chosenPeople(v: TeamViewer, body: unknown): Promise<string[]> {
  const ids = fields(body, 'personId').filter((id) => id.trim() !== '');
  if (ids.length) return ids;
  return [(await picked((input) => v.perform('search.read', input), body, 'personId', ['person']))!];
}

export function targetsPages(ctx: AppContext) {
  async function billSection(v: TeamViewer, b: Bill, query: Record<string, unknown>, manager: boolean): Promise<Html> {
    const board = await section(() => v.perform('team.targets.board', { record: b.recordNumber }));
    if (!board.ok) return html`<section><h2>${b.recordNumber}</h2>${notice(board.message)}</section>`;
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/targets/${encodeURIComponent(b.recordNumber)}`;
    const rows = board.value.targets.map((t) => {
      const forms = manager
        ? html`<form method="post" action="${base}/${encodeURIComponent(t.personId)}/${t.contacted ? 'uncontacted' : 'contacted'}" class="inline" data-live-form>${csrfField(token)}<button type="submit">${t.contacted ? 'Mark not contacted' : 'Mark contacted'}</button></form>
<form method="post" action="${base}/${encodeURIComponent(t.personId)}/remove" class="inline" data-live-form>${csrfField(token)}<button type="submit">Remove</button></form>`
        : '';
      return html`<tr data-person="${t.personId}"><td>${t.name}</td><td>${t.contacted ? 'Contacted' : 'Not yet'}</td>
<td>${t.votes.length ? t.votes.map((x) => html`${x.value} (${x.date}, ${x.actionName})<br>`) : html`<span class="muted">No recorded votes</span>`}</td><td>${forms}</td></tr>`;
    });
    const add = manager
      ? html`<form method="post" action="${base}" data-live-form>${csrfField(token)}
${picker({ name: 'personId', id: `pick-target-${b.recordNumber}`, types: ['person'], label: 'Add an alderperson or official to the list', returnTo: `${teamBase(v.teamId)}/targets?record=${encodeURIComponent(b.recordNumber)}#targets-${encodeURIComponent(b.recordNumber)}`, ...(query.record === b.recordNumber ? prefill(query, 'personId') : {}) })}
<button type="submit">Add to the target list</button></form>`
      : '';
    return html`<section id="targets-${b.recordNumber}"><h2>${b.recordNumber} · ${stanceText(b.position?.stance)}</h2><p>${b.title ?? ''}</p>
${rows.length ? html`<table><thead><tr><th>Target</th><th>Contacted</th><th>Votes on this bill</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No one on the list yet.</p>`}
${add}</section>`;
  }

  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    let region: Html;
    if (!v.may('team.targets.board')) {
      region = notice('Target lists need the team feature "advocacy".');
    } else {
      const manager = v.may('team.targets.add');
      const { bills, problem } = await teamBills(v);
      const query = request.query as Record<string, unknown>;
      const sections = [];
      for (const b of bills) sections.push(await billSection(v, b, query, manager));
      region = html`${problem ? notice(problem) : ''}${manager ? '' : notice('Only team owners and admins can change target lists.')}
${sections.length ? sections : html`<p>Follow a bill or take a position on it to make its target list.</p>`}`;
    }
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'targets', 'Target lists', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, s: PageState, status: number) => render(request, reply, v, s, status);
    const back = (v: TeamViewer, record: string) => `${teamBase(v.teamId)}/targets#targets-${encodeURIComponent(record)}`;
    app.get('/dashboard/:teamId/targets', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    app.post('/dashboard/:teamId/targets/:record', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { record } = request.params as { record: string };
      return act(v, reply, again(request, reply), back(v, record), async () =>
        v.perform('team.targets.add', { record, personIds: await chosenPeople(v, request.body) }),
      );
    });
    const personAction = (path: string, id: 'team.targets.contacted.add' | 'team.targets.contacted.remove' | 'team.targets.remove') =>
      app.post(`/dashboard/:teamId/targets/:record/:personId/${path}`, { preHandler: csrf }, async (request, reply) => {
        const v = (await teamViewer(ctx, request, reply))!;
        const { record, personId } = request.params as { record: string; personId: string };
        return act(v, reply, again(request, reply), back(v, record), () => v.perform(id, { record, personId }));
      });
    personAction('contacted', 'team.targets.contacted.add');
    personAction('uncontacted', 'team.targets.contacted.remove');
    personAction('remove', 'team.targets.remove');
  };
}
