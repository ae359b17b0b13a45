// Analytics dashboards shared with the team: each chart's figures come from the
// team.analytics.chart operation (the page only draws them: SVG with a table of the same figures),
// the layout is saved through the same versioned path as v2 (baseVersion; a layout saved by someone
// else meanwhile is a 409 the page explains). A team with no dashboard gets the starter one on its
// first visit (team.dashboards.starter). Charts are added with one form per kind (chart-forms.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { teamSchemas } from '../../modules/team-data/index.ts';
import { chartWithTable } from '../charts/bar-chart.ts';
import { parseJsonText } from '../http/body-parsers.ts';
import { field } from '../web/form.ts';
import { csrfField, formatTime, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { chartKinds } from './chart-forms.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, teamBase } from './layout.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

type Dashboard = teamSchemas.DashboardOut;
type Widget = teamSchemas.LayoutValue['widgets'][number];

function baseVersionOf(body: unknown): number {
  const raw = field(body, 'baseVersion');
  if (!/^\d{1,9}$/.test(raw)) throw new AppError('invalid_request', 'The form lost track of the layout version; reload the page.');
  return Number(raw);
}

export function analyticsPages(ctx: AppContext) {
  async function widgetView(v: TeamViewer, d: Dashboard, w: Widget): Promise<Html> {
    const chart = await section(() => v.perform('team.analytics.chart', { kind: w.kind, settings: w.settings }));
    const remove = html`<form method="post" action="${teamBase(v.teamId)}/analytics/${encodeURIComponent(d.id)}/widgets/${encodeURIComponent(w.id)}/remove" data-live-form>${csrfField(v.csrfToken)}<input type="hidden" name="baseVersion" value="${d.version}"><button type="submit" class="quiet">Remove this chart</button></form>`;
    const body = chart.ok ? chartWithTable(chart.value, chart.value.head as [string, string]) : notice(`${chartKinds[w.kind].name}: ${chart.message}`);
    return html`<div class="widget" id="widget-${w.id}" data-kind="${w.kind}">${body}${remove}</div>`;
  }

  async function dashboardView(v: TeamViewer, d: Dashboard): Promise<Html> {
    const token = v.csrfToken;
    const base = `${teamBase(v.teamId)}/analytics/${encodeURIComponent(d.id)}`;
    const widgets = [...d.layout.widgets].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
    const views = await Promise.all(widgets.map((w) => widgetView(v, d, w)));
    const version = html`<input type="hidden" name="baseVersion" value="${d.version}">`;
    const kinds = Object.entries(chartKinds) as [Widget['kind'], (typeof chartKinds)[Widget['kind']]][];
    return html`<h2>${d.name}</h2><p class="muted" data-version="${d.version}">Last changed ${formatTime(d.updatedAt)}</p>
${views.length ? html`<div class="widgets">${views}</div>` : html`<p>No charts yet: add one below.</p>`}
<h3>Add a chart</h3><ul class="chart-kinds">${kinds.map(([k, spec]) => html`<li><a href="${base}/add/${k}">${spec.name}</a> <span class="muted">${spec.shows}</span></li>`)}</ul>
<details><summary>Edit the layout as JSON</summary><form method="post" action="${base}/layout" data-live-form>${csrfField(token)}${version}
<label for="layout-json">Layout</label><textarea id="layout-json" name="layout" rows="12">${JSON.stringify(d.layout, null, 2)}</textarea><button type="submit">Save layout</button></form></details>
<form method="post" action="${base}/delete">${csrfField(token)}<button type="submit" class="quiet">Delete this dashboard</button></form>`;
  }

  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const { dashId } = request.params as { dashId?: string };
    const list = () => section(() => all<Dashboard>((cursor) => v.perform('team.dashboards.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
    let dashboards = await list();
    // A team's first visit: the starter dashboard, built from its own bills.
    if (dashboards.ok && dashboards.value.length === 0 && v.may('team.dashboards.starter') && (await v.perform('team.dashboards.starter', {})).created) {
      dashboards = await list();
    }
    const base = `${teamBase(v.teamId)}/analytics`;
    let region: Html;
    if (!dashboards.ok) region = notice(dashboards.message);
    else {
      const current = dashId ? dashboards.value.find((d) => d.id === dashId) : dashboards.value[0];
      if (dashId && !current) throw new AppError('not_found', `No dashboard "${dashId}".`);
      region = html`<nav class="dashboards" aria-label="Dashboards"><ul>${dashboards.value.map((d) => html`<li><a href="${base}/${encodeURIComponent(d.id)}" ${d.id === current?.id ? html`aria-current="page"` : ''}>${d.name}</a> <span class="muted">(${d.layout.widgets.length} charts)</span></li>`)}</ul>
<details><summary>New dashboard</summary><form method="post" action="${base}" data-live-form>${csrfField(v.csrfToken)}<label for="new-dashboard">Name</label><input id="new-dashboard" name="name" required maxlength="200"><button type="submit">Create</button></form></details></nav>
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
