// Legislation: each bill the team follows or has a position on, with the team's stance (set or
// cleared in place by owners and admins, through the same operations as v2, history source
// 'dashboard'), its status and its latest action.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { picked, picker, prefill } from '../pages/picker.ts';
import { field } from '../web/form.ts';
import { csrfField, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { section, type TeamViewer, teamViewer } from './viewer.ts';

export type Bill = teamSchemas.BillOut;

/** The bills the team follows or has positions on, in record order, with their public status. */
export async function teamBills(v: TeamViewer): Promise<{ bills: Bill[]; problem: string | null }> {
  const bills = await section(() => v.perform('team.legislation.list', {}));
  return bills.ok ? { bills: bills.value.data, problem: null } : { bills: [], problem: bills.message };
}

export function latestAction(b: Bill): string {
  const last = b.latestAction;
  if (!last) return '—';
  return [last.date, last.name, last.bodyName ? `(${last.bodyName})` : null, last.result].filter(Boolean).join(' ');
}

function stanceForms(v: TeamViewer, record: string, stance: string | null): Html {
  const action = `${teamBase(v.teamId)}/legislation/${encodeURIComponent(record)}/stance`;
  const token = v.csrfToken;
  return html`<form method="post" action="${action}" class="inline" data-live-form>${csrfField(token)}
<button type="submit" name="stance" value="supports" ${stance === 'supports' ? 'disabled' : ''}>Support</button>
<button type="submit" name="stance" value="opposes" ${stance === 'opposes' ? 'disabled' : ''}>Oppose</button></form>
${stance ? html`<form method="post" action="${action}/clear" class="inline" data-live-form>${csrfField(token)}<button type="submit">Clear stance</button></form>` : ''}`;
}

export function legislationPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const { bills, problem } = await teamBills(v);
    const manager = v.may('team.stance.set');
    const rows = bills.map(
      (b) => html`<tr id="bill-${b.recordNumber}" data-record="${b.recordNumber}">
<td><a href="/matters/${encodeURIComponent(b.recordNumber)}"><strong>${b.recordNumber}</strong></a><br>${b.title ?? ''}<br><a href="${teamBase(v.teamId)}/records/matter/${encodeURIComponent(b.recordNumber)}">Team view: notes, targets, history</a></td>
<td>${b.status ?? '—'}</td>
<td>${latestAction(b)}</td>
<td class="stance" data-stance="${b.position?.stance ?? 'none'}">${stanceText(b.position?.stance)}${b.position?.label ? html`<br><span class="muted">${b.position.label}</span>` : ''}</td>
<td>${manager ? stanceForms(v, b.recordNumber, b.position?.stance ?? null) : ''}</td></tr>`,
    );
    const token = v.csrfToken;
    const region = html`${problem ? notice(problem) : ''}
${manager ? '' : html`<p class="muted">Only the team’s owners and admins set or clear its stance on a bill; members read the team’s bills and write notes on them.</p>`}
${
  bills.length
    ? html`<table><thead><tr><th>Bill</th><th>Status</th><th>Latest action</th><th>Team stance</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>The team follows no bills and has no positions yet.</p>`
}
${
  manager && !problem
    ? html`<h2>Take a stance on another bill</h2>
<form method="post" action="${teamBase(v.teamId)}/legislation/stance" data-live-form>${csrfField(token)}
${picker({ name: 'record', id: 'pick-stance', types: ['matter'], label: 'Bill', required: true, returnTo: `${teamBase(v.teamId)}/legislation`, ...prefill(request.query, 'record') })}
<label>Stance <select name="stance"><option value="supports">Supports</option><option value="opposes">Opposes</option></select></label>
<button type="submit">Set stance</button></form>`
    : ''
}`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'legislation', 'Legislation', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    app.get('/dashboard/:teamId', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return reply.redirect(`${teamBase(v.teamId)}/legislation`, 303);
    });
    app.get('/dashboard/:teamId/legislation', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    const back = (v: TeamViewer, record?: string) => `${teamBase(v.teamId)}/legislation${record ? `#bill-${encodeURIComponent(record)}` : ''}`;
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, state: PageState, status: number) =>
      render(request, reply, v, state, status);

    app.post('/dashboard/:teamId/legislation/stance', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      return act(
        v,
        reply,
        again(request, reply),
        (record: string) => back(v, record),
        async () => {
          const record = (await picked((input) => v.perform('search.read', input), request.body, 'record', ['matter']))!;
          await v.perform('team.stance.set', { record, stance: field(request.body, 'stance') as 'supports' });
          return record;
        },
      );
    });
    app.post('/dashboard/:teamId/legislation/:record/stance', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { record } = request.params as { record: string };
      return act(v, reply, again(request, reply), back(v, record), () =>
        v.perform('team.stance.set', { record, stance: field(request.body, 'stance') as 'supports' }),
      );
    });
    app.post('/dashboard/:teamId/legislation/:record/stance/clear', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { record } = request.params as { record: string };
      return act(v, reply, again(request, reply), back(v, record), () => v.perform('team.stance.clear', { record }));
    });
  };
}
