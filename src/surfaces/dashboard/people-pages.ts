// People (teams with the "people" feature): officials, City staff and lobbyists, and on offices
// teams residents and organization representatives — what the team-data people service shows
// this member, searchable by name, a page at a time.
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { teamSchemas } from '../../modules/team-data/index.ts';
import { dashboardPage, notice, sendDashboardPage, teamBase } from './layout.ts';
import { section, teamViewer } from './viewer.ts';

const kindNames: Record<string, string> = {
  alderperson: 'Alderperson',
  official: 'Official',
  staff: 'City staff',
  lobbyist: 'Lobbyist',
  resident: 'Resident',
  organization_rep: 'Organization representative',
};

function text(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 200) throw new AppError('invalid_request', `${name} must be text of at most 200 characters.`);
  return v;
}

export function peoplePages(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dashboard/:teamId/people', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      const query = request.query as Record<string, unknown>;
      const q = text(query, 'q');
      const cursor = text(query, 'cursor');
      const kind = text(query, 'kind');
      if (kind !== undefined && !(teamSchemas.allPersonKinds as readonly string[]).includes(kind))
        throw new AppError('invalid_request', `Unknown kind of person "${kind}".`);
      const list = await section(() =>
        v.perform('people.team.list', { limit: 50, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}), ...(kind ? { kind: kind as 'staff' } : {}) }),
      );
      const base = `${teamBase(v.teamId)}/people`;
      const next =
        list.ok && list.value.meta.nextCursor
          ? `${base}?${new URLSearchParams({ ...(q ? { q } : {}), ...(kind ? { kind } : {}), cursor: list.value.meta.nextCursor })}`
          : null;
      const region = !list.ok
        ? notice(list.message)
        : html`<form method="get" action="${base}"><label>Search names and organizations <input name="q" value="${q ?? ''}" maxlength="200"></label>
<label>Kind <select name="kind"><option value="">Any</option>${teamSchemas.allPersonKinds.map((k) => html`<option value="${k}" ${k === kind ? 'selected' : ''}>${kindNames[k]}</option>`)}</select></label>
<button type="submit">Search</button></form>
<table><thead><tr><th>Name</th><th>Kind</th><th>Ward</th><th>Organization</th><th>Contact</th></tr></thead><tbody>${list.value.data.map(
            (
              p,
            ) => html`<tr id="person-${p.id}"><td>${p.name}${p.current ? '' : html` <span class="muted">(former)</span>`}</td><td>${kindNames[p.kind]}</td><td>${p.ward ?? ''}</td>
<td>${p.organization ?? ''}</td><td>${[p.email, p.phone].filter(Boolean).join(' · ')}</td></tr>`,
          )}</tbody></table>
${next ? html`<p><a href="${next}">Next page</a></p>` : ''}`;
      return sendDashboardPage(reply, 200, dashboardPage(request, v, 'people', 'People', region));
    });
  };
}
