// Analytics dashboards shared with the team: charts drawn from the public data, with the layout
// edited here and saved through the same versioned path as v2 (baseVersion; a layout saved by
// someone else meanwhile is a 409 that the page explains, showing the current layout to redo).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { teamSchemas } from '../../modules/team-data/index.ts';
import { parseJsonText } from '../http/body-parsers.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { barChart } from './charts.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';
import { widgetCharts } from './widgets.ts';

type Dashboard = teamSchemas.DashboardOut;
type Widget = teamSchemas.LayoutValue['widgets'][number];

const kindNames: Record<Widget['kind'], string> = {
  roll_call: 'Roll call of a bill (record number)',
  voting_record: 'Voting record of an alderperson (person id, dates)',
  attendance: 'Attendance (body id and/or person id, dates)',
  money_by_period: 'Campaign money by period (period, committee id or ward)',
  lobbying_by_client: 'Lobbying by client (client id, year)',
};
const settingFields = ['recordNumber', 'personId', 'bodyId', 'committeeId', 'clientId', 'from', 'to', 'period', 'ward', 'year'] as const;
const numeric = new Set(['ward', 'year']);

/** The settings a widget form gave, only the non-empty ones; numbers where the schema wants them. */
function settingsOf(body: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const name of settingFields) {
    const v = field(body, name).trim();
    if (!v) continue;
    out[name] = numeric.has(name) && /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

function baseVersionOf(body: unknown): number {
  const raw = field(body, 'baseVersion');
  if (!/^\d{1,9}$/.test(raw)) throw new AppError('invalid_request', 'The form lost track of the layout version; reload the page.');
  return Number(raw);
}

export function analyticsPages(ctx: AppContext) {
  const chartOf = widgetCharts(ctx);

  async function widgetView(v: TeamViewer, d: Dashboard, w: Widget): Promise<Html> {
    const chart = await section(() => chartOf(w));
    const remove = html`<form method="post" action="${teamBase(v.teamId)}/analytics/${encodeURIComponent(d.id)}/widgets/${encodeURIComponent(w.id)}/remove" data-live-form>${csrfField(v.csrfToken)}<input type="hidden" name="baseVersion" value="${d.version}"><button type="submit">Remove this chart</button></form>`;
    return html`<div class="widget" id="widget-${w.id}" data-kind="${w.kind}">${chart.ok ? barChart(chart.value) : notice(`${kindNames[w.kind]}: ${chart.message}`)}${remove}</div>`;
  }

  async function dashboardView(v: TeamViewer, d: Dashboard): Promise<Html> {
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/analytics/${encodeURIComponent(d.id)}`;
    const widgets = [...d.layout.widgets].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
    const views = [];
    for (const w of widgets) views.push(await widgetView(v, d, w));
    const version = html`<input type="hidden" name="baseVersion" value="${d.version}">`;
    return html`<h2>${d.name}</h2><p class="muted" data-version="${d.version}">Layout version ${d.version} · updated ${formatTime(d.updatedAt)}</p>
${views.length ? views : html`<p>No charts yet.</p>`}
<h3>Add a chart</h3><form method="post" action="${base}/widgets" data-live-form>${csrfField(token)}${version}
<label>Chart <select name="kind">${teamSchemas.widgetKinds.map((k) => html`<option value="${k}">${kindNames[k]}</option>`)}</select></label>
${settingFields.map((n) => html`<label>${n} <input name="${n}" maxlength="200"></label>`)}
<button type="submit">Add chart</button></form>
<details><summary>Edit the layout as JSON</summary><form method="post" action="${base}/layout" data-live-form>${csrfField(token)}${version}
<textarea name="layout" rows="12">${JSON.stringify(d.layout, null, 2)}</textarea><button type="submit">Save layout</button></form></details>
<form method="post" action="${base}/delete">${csrfField(token)}<button type="submit">Delete this dashboard</button></form>`;
  }

  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const { dashId } = request.params as { dashId?: string };
    const list = await section(() => all<Dashboard>((cursor) => v.perform('team.dashboards.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    const base = `${teamBase(v.teamId)}/analytics`;
    let region: Html;
    if (!list.ok) region = notice(list.message);
    else {
      const current = dashId ? list.value.find((d) => d.id === dashId) : undefined;
      if (dashId && !current) throw new AppError('not_found', `No dashboard "${dashId}".`);
      region = html`<ul>${list.value.map((d) => html`<li><a href="${base}/${encodeURIComponent(d.id)}" ${d.id === dashId ? html`aria-current="page"` : ''}>${d.name}</a> <span class="muted">(${d.layout.widgets.length} charts, version ${d.version})</span></li>`)}</ul>
<form method="post" action="${base}" data-live-form>${csrfField(v.csrfToken)}<label>New dashboard <input name="name" required maxlength="200"></label><button type="submit">Create</button></form>
${current ? await dashboardView(v, current) : ''}`;
    }
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'analytics', 'Analytics', region, state));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const again = (request: FastifyRequest, reply: FastifyReply) => (v: TeamViewer, s: PageState, status: number) => render(request, reply, v, s, status);
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    };
    app.get('/dashboard/:teamId/analytics', page);
    app.get('/dashboard/:teamId/analytics/:dashId', page);

    app.post('/dashboard/:teamId/analytics', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      let created: Dashboard;
      try {
        created = await v.perform('team.dashboards.create', { name: field(request.body, 'name').trim() });
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return render(request, reply, v, { error: err.message }, err.status);
      }
      return reply.redirect(`${teamBase(v.teamId)}/analytics/${encodeURIComponent(created.id)}`, 303);
    });

    /** A layout change made from the version the form was showing. */
    const layoutChange = (path: string, next: (d: Dashboard, body: unknown, params: Record<string, string>) => unknown) =>
      app.post(`/dashboard/:teamId/analytics/:dashId/${path}`, { preHandler: csrf }, async (request, reply) => {
        const v = (await teamViewer(ctx, request, reply))!;
        const params = request.params as Record<string, string>;
        const id = params.dashId!;
        return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/analytics/${encodeURIComponent(id)}`, async () => {
          const baseVersion = baseVersionOf(request.body);
          const d = await v.perform('team.dashboards.read', { id });
          await v.perform('team.dashboards.update', { id, change: { baseVersion, layout: next(d, request.body, params) as teamSchemas.LayoutValue } });
        });
      });

    layoutChange('layout', (_d, body) => parseJsonText(field(body, 'layout'), 'The layout'));
    layoutChange('widgets', (d, body) => {
      const bottom = Math.max(-1, ...d.layout.widgets.map((w) => w.position.y + w.size.h - 1));
      const widget = {
        id: `w${crypto.randomUUID().slice(0, 8)}`,
        kind: field(body, 'kind'),
        position: { x: 0, y: Math.min(1000, bottom + 1) },
        size: { w: 6, h: 4 },
        settings: settingsOf(body),
      };
      return { widgets: [...d.layout.widgets, widget] };
    });
    layoutChange('widgets/:widgetId/remove', (d, _body, params) => {
      if (!d.layout.widgets.some((w) => w.id === params.widgetId)) throw new AppError('not_found', 'That chart is no longer on this dashboard.');
      return { widgets: d.layout.widgets.filter((w) => w.id !== params.widgetId) };
    });

    app.post('/dashboard/:teamId/analytics/:dashId/delete', { preHandler: csrf }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { dashId } = request.params as { dashId: string };
      return act(v, reply, again(request, reply), `${teamBase(v.teamId)}/analytics`, () => v.perform('team.dashboards.delete', { id: dashId }));
    });
  };
}
