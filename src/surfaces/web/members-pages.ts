// Dashboard → Settings → Members of one team. Owners and admins add people by email, change
// roles and remove members; anyone may leave. The accounts service decides (who may manage; admins
// neither make nor unmake owners; a team keeps at least one owner) — this page only offers the forms.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { roles } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { asAccount } from '../../modules/accounts/index.ts';
import { field } from './form.ts';
import { csrfField, errorBox, formatTime, page, sendPage } from './layout.ts';
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
  const { accounts } = ctx.services;

  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: MembersState, status: number) {
    const { teamId } = request.params as { teamId: string };
    const me = session.actor.account.id;
    const { team, role, mayManage: manager } = await accounts.members.view(asAccount(me), teamId);
    const token = session.csrfToken;
    const base = `/dashboard/${team.id}/settings/members`;
    const rows = team.members.map(
      (m) => html`<tr><td>${m.email}</td><td>${m.name ?? ''}</td><td>${m.role}</td><td>${formatTime(m.since)}</td>
<td>${
        manager
          ? html`<form method="post" action="${base}/${m.accountId}/role">${csrfField(token)}${roleSelect(m.role, `Role of ${m.email}`)}<button type="submit">Change role</button></form>
<form method="post" action="${base}/${m.accountId}/remove">${csrfField(token)}<button type="submit">${m.accountId === me ? 'Leave team' : 'Remove'}</button></form>`
          : m.accountId === me
            ? html`<form method="post" action="${base}/${m.accountId}/remove">${csrfField(token)}<button type="submit">Leave team</button></form>`
            : ''
      }</td></tr>`,
    );
    const add = manager
      ? html`<h2>Add a member</h2>
<p>They need an account: anyone who has signed in once has one.</p>
<form method="post" action="${base}">${csrfField(token)}
  <label>Email address <input type="email" name="email" value="${state.previous?.email ?? ''}" required maxlength="254"></label>
  <label>Role ${roleSelect(state.previous?.role ?? 'member')}</label>
  <button type="submit">Add member</button>
</form>`
      : '';
    const body = html`${teamNav(team.id)}
${errorBox(state.error)}
<p>Team <strong>${team.name}</strong> · your role: ${role}</p>
<table><thead><tr><th>Email</th><th>Name</th><th>Role</th><th>Since</th><th></th></tr></thead><tbody>${rows}</tbody></table>
${add}`;
    return sendPage(reply, status, page(`${team.name}: members`, viewerOf(request), body));
  }

  /** A refused or malformed form: the page again with the reason and the error's status. */
  async function attempt(request: FastifyRequest, reply: FastifyReply, state: MembersState, change: (session: SignedIn, teamId: string) => Promise<unknown>) {
    const session = signedIn(request, reply)!;
    const { teamId } = request.params as { teamId: string };
    // Another team's page is a plain 404, before anything about the form is said.
    await accounts.members.view(asAccount(session.actor.account.id), teamId);
    try {
      await change(session, teamId);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return render(request, reply, session, { ...state, error: err.message }, err.status);
    }
    // Someone who left or lost access goes back to their account page.
    const still = await accounts.members.roleOf(teamId, session.actor.account.id);
    return reply.redirect(still ? `/dashboard/${teamId}/settings/members` : '/account', 303);
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
      return attempt(request, reply, { previous: { email, role } }, (session, teamId) =>
        accounts.members.addByEmail(asAccount(session.actor.account.id), { teamId, email, role }),
      );
    });

    app.post('/dashboard/:teamId/settings/members/:accountId/role', { preHandler: csrf }, async (request, reply) => {
      const { accountId } = request.params as { accountId: string };
      return attempt(request, reply, {}, (session, teamId) =>
        accounts.members.setRole(asAccount(session.actor.account.id), { teamId, accountId, role: field(request.body, 'role') }),
      );
    });

    app.post('/dashboard/:teamId/settings/members/:accountId/remove', { preHandler: csrf }, async (request, reply) => {
      const { accountId } = request.params as { accountId: string };
      return attempt(request, reply, {}, (session, teamId) => accounts.members.remove(asAccount(session.actor.account.id), { teamId, accountId }));
    });
  };
}
