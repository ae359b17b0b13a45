// The scorecard: how each alderperson voted relative to the team's stances (team.scorecard.read,
// the same operation as GET /api/v2/team/scorecard, MCP and GraphQL). Sorted by any column through
// the operation's `sort`; every vote links the roll call it was cast on.
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { analyticsSchemas } from '../../modules/team-data/index.ts';
import type { Html } from '../web/layout.ts';
import { dashboardPage, notice, sendDashboardPage, stanceText, teamBase } from './layout.ts';
import { section, teamViewer } from './viewer.ts';

type Sort = (typeof analyticsSchemas.scorecardSorts)[number];
type Card = analyticsSchemas.ScorecardOut;

const percent = (a: number | null) => (a === null ? '—' : `${Math.round(a * 100)}%`);
const rollCallLink = (id: string, text: string) => html`<a href="/roll-calls/${encodeURIComponent(id)}">${text}</a>`;
const matterLink = (record: string) => html`<a href="/matters/${encodeURIComponent(record)}">${record}</a>`;

function peopleTable(base: string, card: Card, sort: Sort): Html {
  const head = (label: string, asc: Sort, desc?: Sort) => {
    const active = sort === asc || sort === desc;
    const next = desc && sort === desc ? asc : (desc ?? asc);
    const aria = active ? html` aria-sort="${sort === desc ? 'descending' : 'ascending'}"` : '';
    return html`<th scope="col"${aria}><a href="${base}?sort=${encodeURIComponent(next)}">${label}</a></th>`;
  };
  const row = (p: Card['people'][number]) => html`<tr data-person="${p.personId}">
<td><a href="/people/${encodeURIComponent(p.personId)}">${p.name}</a></td><td class="num">${p.ward ?? ''}</td>
<td class="num agreement" data-agreement="${p.agreement ?? ''}"><meter min="0" max="1" value="${p.agreement ?? 0}" aria-hidden="true"></meter> ${percent(p.agreement)}</td>
<td class="num">${p.withStance}</td><td class="num">${p.againstStance}</td><td class="num">${p.notVoting}</td>
<td><details><summary>${p.votes.length} ${p.votes.length === 1 ? 'vote' : 'votes'}</summary><ul>${p.votes.map(
    (x) =>
      html`<li>${matterLink(x.recordNumber)}: ${rollCallLink(x.rollCallId, x.value)} ${x.agrees === null ? '' : x.agrees ? html`<span class="with">with us</span>` : html`<span class="against">against us</span>`}</li>`,
  )}</ul></details></td></tr>`;
  return html`<table class="scorecard"><caption>Alderpersons scored on the team’s bills</caption><thead><tr>${head('Alderperson', 'name')}${head('Ward', 'ward')}${head('Agreement', 'agreement', '-agreement')}<th scope="col">With us</th>${head('Against us', '-against')}<th scope="col">Neither</th><th scope="col">Votes cited</th></tr></thead>
<tbody>${card.people.map(row)}</tbody></table>`;
}

function billsTable(card: Card): Html {
  return html`<table><caption>The team’s bills and their latest roll call</caption><thead><tr><th scope="col">Bill</th><th scope="col">Our stance</th><th scope="col">Roll call scored</th><th scope="col" class="num">Yeas</th><th scope="col" class="num">Nays</th><th scope="col" class="num">With us</th><th scope="col" class="num">Against us</th></tr></thead>
<tbody>${card.bills.map(
    (
      b,
    ) => html`<tr data-record="${b.recordNumber}"><td>${matterLink(b.recordNumber)}<br><span class="muted">${b.title ?? ''}</span></td><td>${stanceText(b.stance)}</td>
<td>${b.rollCall ? rollCallLink(b.rollCall.id, `${b.rollCall.date}: ${b.rollCall.actionName}`) : html`<span class="muted">No roll call yet</span>`}</td>
<td class="num">${b.yeas}</td><td class="num">${b.nays}</td><td class="num">${b.withStance}</td><td class="num">${b.againstStance}</td></tr>`,
  )}</tbody></table>`;
}

export function scorecardPage(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dashboard/:teamId/scorecard', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      const raw = (request.query as Record<string, unknown>).sort ?? '-agreement';
      if (!(analyticsSchemas.scorecardSorts as readonly unknown[]).includes(raw)) {
        throw new AppError('invalid_request', `sort must be one of ${analyticsSchemas.scorecardSorts.join(', ')}.`);
      }
      const sort = raw as Sort;
      const card = await section(() => v.perform('team.scorecard.read', { sort }));
      const base = `${teamBase(v.teamId)}/scorecard`;
      let region: Html;
      if (!card.ok) region = notice(card.message);
      else if (!card.value.bills.length) {
        region = html`<p>The scorecard scores the council against the team’s stances. <a href="${teamBase(v.teamId)}/legislation">Take a stance on a bill</a> to start it.</p>`;
      } else {
        const scored = card.value.bills.filter((b) => b.rollCall).length;
        const bills = card.value.bills.length;
        region = html`<p>${scored} of the team’s ${bills} ${bills === 1 ? 'bill' : 'bills'} with a stance ${scored === 1 ? 'has' : 'have'} a roll call; the latest roll call of each is scored. A Yea on a bill the team supports, or a Nay on one it opposes, is <strong>with us</strong>.</p>
${billsTable(card.value)}${peopleTable(base, card.value, sort)}`;
      }
      return sendDashboardPage(reply, 200, dashboardPage(request, v, 'scorecard', 'Scorecard', region));
    });
  };
}
