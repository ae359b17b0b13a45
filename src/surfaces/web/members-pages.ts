// Dashboard → Settings → Members of one team. Owners and admins add people by email, change
// roles and remove members; anyone may leave. Each form performs a members operation of the
// catalogue (modules/accounts/operations.ts) as the signed-in person acting for the team; the
// accounts policy decides (admins neither make nor unmake owners; a team keeps at least one owner)
// — this page only offers the forms.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { roles } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { canManageMembers } from '../../modules/accounts/index.ts';
import { field } from './form.ts';
import { csrfField, errorBox, formatTime, page, sendPage } from './layout.ts';
import { type SettingsViewer, pagePerformer } from './settings-viewer.ts';
import { requireCsrf, type SignedIn, signedIn } from './security.ts';
import { viewerOf } from './signin-pages.ts';
import { teamNav } from './team-keys-pages.ts';

interface MembersState {
  error?: string;
  previous?: { email: string; role: string };
}

function roleSelect(current: string, label = '') {
  return html`<select name="role"${label ? html` aria-label="${label}"` : ''}>${roles.map((r) => html`<option value="${r}" ${r === current ? 'selected' : ''}>${r}</option>`)}</select>`;
}

export function membersPages(ctx: AppContext) {
  /** The person acting for the page's team: another team's page is a plain 404, before anything else is said. */
  async function teamPerformer(request: FastifyRequest, session: SignedIn) {
    const { teamId } = request.params as { teamId: string };
    const actor = await ctx.services.credentials.actingForTeam(session, teamId);
    return { p: pagePerformer(ctx, actor), team: actor.team };
  }

  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: MembersState, status: number) {
    const { p, team } = await teamPerformer(request, session);
    const { data: members } = await p.perform('team.members.list', {});
    const me = session.actor.account.id;
    const manager = p.may('team.members.add') && canManageMembers(team.role);
    const leave = p.may('team.members.remove');
    const token = session.csrfToken;
    const base = `/dashboard/${team.id}/settings/members`;
    const removeForm = (accountId: string) =>
      html`<form method="post" action="${base}/${accountId}/remove">${csrfField(token)}<button type="submit">${accountId === me ? 'Leave team' : 'Remove'}</button></form>`;
    const rows = members.map(
      (
        m,
      ) => html`<tr><td>${m.email}${m.emailVerified ? '' : html` <span class="muted">(invited, not signed in yet)</span>`}</td><td>${m.name ?? ''}</td><td>${m.role}</td><td>${formatTime(m.since)}</td>
<td>${
        manager
          ? html`<form method="post" action="${base}/${m.accountId}/role">${csrfField(token)}${roleSelect(m.role, `Role of ${m.email}`)}<button type="submit">Change role</button></form>
${removeForm(m.accountId)}`
          : m.accountId === me && leave
            ? removeForm(m.accountId)
            : ''
      }</td></tr>`,
    );
    const add = manager
      ? html`<h2>Invite a member</h2>
<p>We email them a link that signs them in and opens this team's dashboard; if they have never signed in, it makes their account.</p>
<form method="post" action="${base}">${csrfField(token)}
  <label>Email address <input type="email" name="email" value="${state.previous?.email ?? ''}" required maxlength="254"></label>
  <label>Role ${roleSelect(state.previous?.role ?? 'member')}</label>
  <button type="submit">Invite by email</button>
</form>`
      : '';
    const { invited } = request.query as { invited?: string };
    const invitee = members.find((m) => m.accountId === invited);
    const notice = invitee
      ? html`<p class="notice" role="status">Added ${invitee.email} as ${invitee.role}. We emailed them a link that signs them in and opens this team's dashboard.</p>`
      : '';
    const body = html`${teamNav(team.id)}
${errorBox(state.error)}${notice}
<p>Team <strong>${team.name}</strong> · your role: ${team.role}</p>
<table><thead><tr><th>Email</th><th>Name</th><th>Role</th><th>Since</th><th></th></tr></thead><tbody>${rows}</tbody></table>
${add}`;
    return sendPage(reply, status, page(`${team.name}: members`, viewerOf(request), body));
  }

  /**
   * Performs one change; a refused or malformed form shows the page again with the reason and the
   * error's status. Someone who left goes back to their account page; `query` adds to the members
   * page's address what the change did (who was invited).
   */
  async function attempt<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    state: MembersState,
    change: (p: SettingsViewer) => Promise<T>,
    then: { leaving?: boolean; query?: (result: T) => string } = {},
  ) {
    const session = signedIn(request, reply)!;
    const { p, team } = await teamPerformer(request, session);
    let result: T;
    try {
      result = await change(p);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return render(request, reply, session, { ...state, error: err.message }, err.status);
    }
    return reply.redirect(then.leaving ? '/account' : `/dashboard/${team.id}/settings/members${then.query?.(result) ?? ''}`, 303);
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    app.get('/dashboard/:teamId/settings/members', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return render(request, reply, session, {}, 200);
    });

    app.post('/dashboard/:teamId/settings/members', { preHandler: csrf }, async (request, reply) => {
      const email = field(request.body, 'email');
      const role = field(request.body, 'role');
      return attempt(request, reply, { previous: { email, role } }, (p) => p.perform('team.members.add', { email, role }), {
        query: (added) => `?invited=${encodeURIComponent(added.accountId)}`,
      });
    });

    app.post('/dashboard/:teamId/settings/members/:accountId/role', { preHandler: csrf }, async (request, reply) => {
      const { accountId } = request.params as { accountId: string };
      return attempt(request, reply, {}, (p) => p.perform('team.members.role.set', { accountId, role: field(request.body, 'role') }));
    });

    app.post('/dashboard/:teamId/settings/members/:accountId/remove', { preHandler: csrf }, async (request, reply) => {
      const { accountId } = request.params as { accountId: string };
      const leaving = accountId === request.signedIn?.actor.account.id;
      return attempt(request, reply, {}, (p) => p.perform('team.members.remove', { accountId }), { leaving });
    });
  };
}
