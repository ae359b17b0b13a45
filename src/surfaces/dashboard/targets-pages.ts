// Target lists (advocacy teams): for each bill the team follows or has a position on, who to
// lobby, who has been contacted, and how each target voted on the bill (public roll calls).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { schemas } from '../../modules/public-data/index.ts';
import { fields } from '../web/form.ts';
import { csrfField, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { type Bill, teamBills } from './legislation-pages.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

export function targetsPages(ctx: AppContext) {
  const { teamData: td, publicData: pd } = ctx.services;

  async function personName(id: string): Promise<string> {
    const person = await section(() => pd.people.get(id));
    return person.ok ? person.value.name : id;
  }

  async function billSection(v: TeamViewer, b: Bill, alders: schemas.PersonOut[]): Promise<Html> {
    const targets = await section(() => td.targets.get(v.actor, { record: b.record }));
    if (!targets.ok) return html`<section><h2>${b.record}</h2>${notice(targets.message)}</section>`;
    const votes = await all<schemas.VoteOut>((cursor) => pd.votes.list({ matter: b.record, limit: 200, cursor }));
    const names = new Map(alders.map((p) => [p.id, p.name]));
    const token = v.session.info.csrfToken;
    const base = `${teamBase(v.teamId)}/targets/${encodeURIComponent(b.record)}`;
    const rows = [];
    for (const id of targets.value.onTargetList) {
      const contacted = targets.value.contacted.includes(id);
      const label = names.get(id) ?? (await personName(id));
      const theirs = votes.filter((x) => x.personId === id);
      const forms = v.manager
        ? html`<form method="post" action="${base}/${encodeURIComponent(id)}/${contacted ? 'uncontacted' : 'contacted'}" class="inline" data-live-form>${csrfField(token)}<button type="submit">${contacted ? 'Mark not contacted' : 'Mark contacted'}</button></form>
<form method="post" action="${base}/${encodeURIComponent(id)}/remove" class="inline" data-live-form>${csrfField(token)}<button type="submit">Remove</button></form>`
        : '';
      rows.push(html`<tr data-person="${id}"><td>${label}</td><td>${contacted ? 'Contacted' : 'Not yet'}</td>
<td>${theirs.length ? theirs.map((x) => html`${x.value} (${x.date}, ${x.actionName})<br>`) : html`<span class="muted">No recorded votes</span>`}</td><td>${forms}</td></tr>`);
    }
    const add = v.manager
      ? html`<form method="post" action="${base}" data-live-form>${csrfField(token)}
<label>Add to the list <select name="personId" multiple size="4">${alders
          .filter((p) => !targets.value.onTargetList.includes(p.id))
          .map((p) => html`<option value="${p.id}">${p.ward ? `Ward ${p.ward}: ` : ''}${p.name}</option>`)}</select></label><button type="submit">Add targets</button></form>`
      : '';
    return html`<section id="targets-${b.record}"><h2>${b.record} · ${stanceText(b.position?.stance)}</h2><p>${b.matter?.title ?? ''}</p>
${rows.length ? html`<table><thead><tr><th>Target</th><th>Contacted</th><th>Votes on this bill</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No one on the list yet.</p>`}
${add}</section>`;
  }

  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    let region: Html;
    if (!v.actor.team.features.includes('advocacy')) {
      region = notice('Target lists need the team feature "advocacy".');
    } else {
      const { bills, problem } = await teamBills(ctx, v);
      const alders = await all<schemas.PersonOut>((cursor) => pd.people.list({ kind: 'alderperson', current: true, sort: 'ward', limit: 200, cursor }));
      const sections = [];
      for (const b of bills) sections.push(await billSection(v, b, alders));
      region = html`${problem ? notice(problem) : ''}${v.manager ? '' : notice('Only team owners and admins can change target lists.')}
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
      return act(v, reply, again(request, reply), back(v, record), () => td.targets.add(v.actor, { record, personIds: fields(request.body, 'personId') }));
    });
    const personAction = (path: string, change: (v: TeamViewer, input: { record: string; personId: string }) => Promise<unknown>) =>
      app.post(`/dashboard/:teamId/targets/:record/:personId/${path}`, { preHandler: csrf }, async (request, reply) => {
        const v = (await teamViewer(ctx, request, reply))!;
        const { record, personId } = request.params as { record: string; personId: string };
        return act(v, reply, again(request, reply), back(v, record), () => change(v, { record, personId }));
      });
    personAction('contacted', (v, input) => td.targets.markContacted(v.actor, input));
    personAction('uncontacted', (v, input) => td.targets.unmarkContacted(v.actor, input));
    personAction('remove', (v, input) => td.targets.remove(v.actor, input));
  };
}
