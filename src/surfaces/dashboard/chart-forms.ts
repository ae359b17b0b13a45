// One form per chart kind: labelled fields for only that kind's settings, record pickers instead
// of ids, and a preview. "Preview" is a GET of the form's own page (the settings in the query, so
// /pick can return to it); the preview then offers "Add this chart", a POST carrying the settings
// the preview was drawn with.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type analyticsSchemas, teamSchemas } from '../../modules/team-data/index.ts';
import { chartWithTable } from '../charts/bar-chart.ts';
import { type PickType, picked, picker, prefill, type Search } from '../pages/picker.ts';
import { field } from '../web/form.ts';
import { csrfField, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, sendDashboardPage, teamBase } from './layout.ts';
import { section, type TeamViewer, teamViewer } from './viewer.ts';

type Kind = analyticsSchemas.ChartInput['kind'];
type Field =
  | { name: string; label: string; type: 'pick'; types: PickType[]; required?: boolean }
  | { name: string; label: string; type: 'date' }
  | { name: string; label: string; type: 'number'; min: number; max: number }
  | { name: string; label: string; type: 'select'; options: [string, string][] };

const from: Field = { name: 'from', label: 'From (date, optional)', type: 'date' };
const to: Field = { name: 'to', label: 'To (date, optional)', type: 'date' };

/** Each kind's name, what it shows, and its fields (money's campaign committee is set in the layout JSON: no search covers committees' ids yet). */
export const chartKinds: Record<Kind, { name: string; shows: string; fields: Field[] }> = {
  team_bills_by_status: { name: 'Our bills by status', shows: 'The bills the team follows or has a stance on, counted by where they stand.', fields: [] },
  team_upcoming_agendas: { name: 'Our bills on upcoming agendas', shows: 'Meetings ahead whose agenda holds the team’s bills.', fields: [] },
  team_target_votes: { name: 'How our targets voted', shows: 'Each target’s votes with the team’s stance on the bills they are targeted for.', fields: [] },
  roll_call: {
    name: 'Roll call of a bill',
    shows: 'Yeas, nays, absences on the latest roll call of one bill.',
    fields: [{ name: 'recordNumber', label: 'Bill', type: 'pick', types: ['matter'], required: true }],
  },
  voting_record: {
    name: 'Voting record of an alderperson',
    shows: 'How one alderperson voted, counted by vote.',
    fields: [{ name: 'personId', label: 'Alderperson', type: 'pick', types: ['person'], required: true }, from, to],
  },
  attendance: {
    name: 'Attendance',
    shows: 'Attendance at the latest 20 meetings, of one committee and/or one person.',
    fields: [
      { name: 'bodyId', label: 'Committee (optional)', type: 'pick', types: ['body'] },
      { name: 'personId', label: 'Person (optional)', type: 'pick', types: ['person'] },
      from,
      to,
    ],
  },
  money_by_period: {
    name: 'Campaign money by period',
    shows: 'Campaign receipts per month, quarter or year, for all committees or one ward’s.',
    fields: [
      {
        name: 'period',
        label: 'Period',
        type: 'select',
        options: [
          ['year', 'Year'],
          ['quarter', 'Quarter'],
          ['month', 'Month'],
        ],
      },
      { name: 'ward', label: 'Ward (optional, 1–50)', type: 'number', min: 1, max: 50 },
    ],
  },
  lobbying_by_client: {
    name: 'Lobbying by client',
    shows: 'Lobbying compensation by client, or for one client by lobbyist.',
    fields: [
      { name: 'clientId', label: 'Lobbying client (optional)', type: 'pick', types: ['lobbying_client'] },
      { name: 'year', label: 'Year (optional)', type: 'number', min: 1990, max: 2100 },
    ],
  },
};

const isKind = (k: string): k is Kind => (teamSchemas.widgetKinds as readonly string[]).includes(k);

/** The settings a form (a query or a body) gives for a kind; pickers resolved, blanks left out. */
export async function settingsFrom(search: Search, source: unknown, kind: Kind): Promise<Record<string, string | number>> {
  const out: Record<string, string | number> = {};
  for (const f of chartKinds[kind].fields) {
    const v = f.type === 'pick' ? await picked(search, source, f.name, f.types, f.required === true) : field(source, f.name).trim();
    if (!v) continue;
    if (f.type === 'number' && !/^\d{1,4}$/.test(v)) throw new AppError('invalid_request', `${f.label}: a whole number, please.`);
    out[f.name] = f.type === 'number' ? Number(v) : v;
  }
  return out;
}

function fieldHtml(f: Field, query: unknown, returnTo: string): Html {
  const value = field(query, f.name);
  const id = `chart-${f.name}`;
  switch (f.type) {
    case 'pick':
      return picker({ name: f.name, types: f.types, label: f.label, ...prefill(query, f.name), required: f.required === true, returnTo });
    case 'date':
      return html`<label for="${id}">${f.label}</label><input id="${id}" type="date" name="${f.name}" value="${value}">`;
    case 'number':
      return html`<label for="${id}">${f.label}</label><input id="${id}" type="number" name="${f.name}" min="${f.min}" max="${f.max}" value="${value}">`;
    case 'select':
      return html`<label for="${id}">${f.label}</label><select id="${id}" name="${f.name}">${f.options.map(([v, label]) => html`<option value="${v}" ${v === value ? 'selected' : ''}>${label}</option>`)}</select>`;
  }
}

export function chartFormPages(ctx: AppContext) {
  const kindOf = (params: unknown) => {
    const kind = String((params as { kind?: string }).kind ?? '');
    if (!isKind(kind)) throw new AppError('not_found', `No chart kind "${kind}".`);
    return kind;
  };
  const searchFor =
    (v: TeamViewer): Search =>
    (input) =>
      v.perform('search.read', input);

  async function formPage(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, error?: string, status = 200) {
    const { dashId } = request.params as { dashId: string };
    const kind = kindOf(request.params);
    const d = await v.perform('team.dashboards.read', { id: dashId });
    const base = `${teamBase(v.teamId)}/analytics/${encodeURIComponent(d.id)}`;
    const own = `${base}/add/${kind}`;
    const query = request.query as Record<string, unknown>;
    const spec = chartKinds[kind];
    let preview: Html | string = '';
    if (query.preview !== undefined || spec.fields.length === 0) {
      const drawn = await section(async () => {
        const settings = await settingsFrom(searchFor(v), query, kind);
        return { settings, chart: await v.perform('team.analytics.chart', { kind, settings }) };
      });
      preview = drawn.ok
        ? html`<section class="preview" aria-label="Preview"><h2>Preview</h2>${chartWithTable(drawn.value.chart, drawn.value.chart.head as [string, string])}
<form method="post" action="${base}/widgets">${csrfField(v.csrfToken)}<input type="hidden" name="kind" value="${kind}"><input type="hidden" name="baseVersion" value="${d.version}">
${Object.entries(drawn.value.settings).map(([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}">`)}
<button type="submit">Add this chart to “${d.name}”</button></form></section>`
        : notice(drawn.message);
    }
    const form = spec.fields.length
      ? html`<form method="get" action="${own}" class="chart-form"><input type="hidden" name="preview" value="1">
${spec.fields.map((f) => fieldHtml(f, query, own))}<button type="submit">Preview</button></form>`
      : '';
    const region = html`${error ? notice(error) : ''}<p><a href="${base}">Back to “${d.name}”</a></p><h2>${spec.name}</h2><p>${spec.shows}</p>${form}${preview}`;
    return sendDashboardPage(reply, status, dashboardPage(request, v, 'analytics', `Add a chart: ${spec.name}`, region));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dashboard/:teamId/analytics/:dashId/add/:kind', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return formPage(request, reply, v);
    });
    app.post('/dashboard/:teamId/analytics/:dashId/widgets', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const v = (await teamViewer(ctx, request, reply))!;
      const { dashId } = request.params as { dashId: string };
      const kind = field(request.body, 'kind');
      const back = `${teamBase(v.teamId)}/analytics/${encodeURIComponent(dashId)}`;
      const again = (_v: TeamViewer, s: { error?: string | undefined }, status: number) => {
        (request.params as Record<string, string>).kind = isKind(kind) ? kind : 'roll_call';
        return formPage(request, reply, v, s.error, status);
      };
      return act(v, reply, again, back, async () => {
        if (!isKind(kind)) throw new AppError('invalid_request', `No chart kind "${kind}".`);
        const raw = field(request.body, 'baseVersion');
        if (!/^\d{1,9}$/.test(raw)) throw new AppError('invalid_request', 'The form lost track of the layout version; reload the page.');
        const settings = await settingsFrom(searchFor(v), request.body, kind);
        const d = await v.perform('team.dashboards.read', { id: dashId });
        const bottom = Math.max(-1, ...d.layout.widgets.map((w) => w.position.y + w.size.h - 1));
        const widget = { id: `w${crypto.randomUUID().slice(0, 8)}`, kind, position: { x: 0, y: Math.min(1000, bottom + 1) }, size: { w: 6, h: 4 }, settings };
        await v.perform('team.dashboards.update', { id: dashId, change: { baseVersion: Number(raw), layout: { widgets: [...d.layout.widgets, widget] } } });
      });
    });
  };
}
