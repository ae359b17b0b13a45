// Legislation: each bill the team follows or has a position on, with the team's stance (set or
// cleared in place by owners and admins, through the same team-data functions as v2, history
// source 'dashboard'), its status and its latest action.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { schemas } from '../../modules/public-data/index.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { csrfField, type Html } from '../web/layout.ts';
import { field } from '../web/form.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

type Position = teamSchemas.PositionOut;
type Follow = teamSchemas.FollowOut;

export interface Bill {
  record: string;
  position: Position | null;
  matter: schemas.MatterDetailOut | null;
}

/** The bills the team follows or has positions on, in record order, with their public record. */
export async function teamBills(ctx: AppContext, v: TeamViewer): Promise<{ bills: Bill[]; problem: string | null }> {
  const td = ctx.services.teamData;
  const positions = await section(() => all<Position>((cursor) => td.positions.list(v.actor, { limit: 200, cursor })));
  const follows = await section(() => all<Follow>((cursor) => td.teamFollows.list(v.actor, { limit: 200, cursor })));
  if (!positions.ok) return { bills: [], problem: positions.message };
  const byRecord = new Map<string, Position | null>();
  for (const p of positions.value) byRecord.set(p.recordId, p);
  if (follows.ok) for (const f of follows.value) if (f.type === 'legislation' && !byRecord.has(f.refId)) byRecord.set(f.refId, null);
  const bills: Bill[] = [];
  for (const [record, position] of [...byRecord].sort(([a], [b]) => a.localeCompare(b))) {
    const matter = await section(() => ctx.services.publicData.matters.get(record));
    bills.push({ record, position, matter: matter.ok ? matter.value : null });
  }
  return { bills, problem: null };
}

export function latestAction(m: schemas.MatterDetailOut | null): string {
  const last = m?.actions.at(-1);
  if (!last) return '—';
  return [last.date, last.name, last.bodyName ? `(${last.bodyName})` : null, last.result].filter(Boolean).join(' ');
}

function stanceForms(v: TeamViewer, record: string, stance: string | null): Html {
  const action = `${teamBase(v.teamId)}/legislation/${encodeURIComponent(record)}/stance`;
  const token = v.session.info.csrfToken;
  return html`<form method="post" action="${action}" class="inline" data-live-form>${csrfField(token)}
<button type="submit" name="stance" value="supports" ${stance === 'supports' ? 'disabled' : ''}>Support</button>
<button type="submit" name="stance" value="opposes" ${stance === 'opposes' ? 'disabled' : ''}>Oppose</button></form>
${stance ? html`<form method="post" action="${action}/clear" class="inline" data-live-form>${csrfField(token)}<button type="submit">Clear stance</button></form>` : ''}`;
}

export function legislationPages(ctx: AppContext) {
  const td = ctx.services.teamData;

  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const { bills, problem } = await teamBills(ctx, v);
    const rows = bills.map(
      (b) => html`<tr id="bill-${b.record}" data-record="${b.record}">
<td><strong>${b.record}</strong><br>${b.matter?.title ?? ''}</td>
<td>${b.matter?.status ?? '—'}</td>
<td>${latestAction(b.matter)}</td>
<td class="stance" data-stance="${b.position?.stance ?? 'none'}">${stanceText(b.position?.stance)}${b.position?.label ? html`<br><span class="muted">${b.position.label}</span>` : ''}</td>
<td>${v.manager ? stanceForms(v, b.record, b.position?.stance ?? null) : ''}</td></tr>`,
    );
    const token = v.session.info.csrfToken;
    const region = html`${problem ? notice(problem) : ''}
${v.manager ? '' : notice('Only team owners and admins can set or clear the team’s stance on a bill.')}
${
  bills.length
    ? html`<table><thead><tr><th>Bill</th><th>Status</th><th>Latest action</th><th>Team stance</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>The team follows no bills and has no positions yet.</p>`
}
${
  v.manager && !problem
    ? html`<h2>Take a stance on another bill</h2>
<form method="post" action="${teamBase(v.teamId)}/legislation/stance" data-live-form>${csrfField(token)}
<label>Record number <input name="record" required maxlength="200" placeholder="O2023-0001234"></label>
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
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, state: PageState, status: number) => render(request, reply, v, state, status);

    app.post('/dashboard/:teamId/legislation/stance', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const record = field(request.body, 'record').trim();
      return act(v, reply, again(request, reply), back(v, record), () =>
        td.stance.set(v.actor, { record, stance: field(request.body, 'stance') as 'supports' }, { source: 'dashboard' }),
      );
    });
    app.post('/dashboard/:teamId/legislation/:record/stance', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { record } = request.params as { record: string };
      return act(v, reply, again(request, reply), back(v, record), () =>
        td.stance.set(v.actor, { record, stance: field(request.body, 'stance') as 'supports' }, { source: 'dashboard' }),
      );
    });
    app.post('/dashboard/:teamId/legislation/:record/stance/clear', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { record } = request.params as { record: string };
      return act(v, reply, again(request, reply), back(v, record), () => td.stance.clear(v.actor, { record }, { source: 'dashboard' }));
    });
  };
}
