// Dashboard → Settings → API keys of one team. Owners and admins see, edit and revoke every key of
// the team and make team keys with the scopes their role can grant; members see only the team
// keys they made. The credentials service enforces all of it; this page only shows the choices.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { allScopes, roleCanGrant, scopeFitsKeyKind } from '../../kernel/operations.ts';
import { asAccount } from '../../modules/accounts/index.ts';
import { type KeyPageState, registerKeyActions } from './key-actions.ts';
import { createdKeyBox, createKeyForm, keyTable } from './key-views.ts';
import { errorBox, type Html, page, sendPage } from './layout.ts';
import { signedIn, type WebSession } from './security.ts';
import { viewerOf } from './signin-pages.ts';

export function teamNav(teamId: string): Html {
  return html`<nav><a href="/account">Your account</a> · Settings: <a href="/dashboard/${teamId}/settings/api-keys">API keys</a> ·
<a href="/dashboard/${teamId}/settings/members">Members</a></nav>`;
}

/** The team as the signed-in person sees it, with their role; another team is 404. */
export async function teamOf(ctx: AppContext, session: WebSession, teamId: string) {
  const me = session.info.account.id;
  const team = await ctx.services.accounts.teams.get(asAccount(me), teamId);
  const role = await ctx.services.accounts.members.roleOf(teamId, me);
  if (!role) throw new AppError('not_found', 'No such team.');
  return { team, role };
}

export function teamKeysPages(ctx: AppContext) {
  const keys = ctx.services.credentials.keys;

  async function render(request: FastifyRequest, reply: FastifyReply, session: WebSession, state: KeyPageState, status: number) {
    const { teamId } = request.params as { teamId: string };
    const me = session.info.account.id;
    const by = asAccount(me);
    const { team, role } = await teamOf(ctx, session, teamId);
    const manager = role === 'owner' || role === 'admin';
    const token = session.info.csrfToken;
    const base = `/dashboard/${team.id}/settings/api-keys`;
    const list = manager
      ? await keys.list(by, { teamId: team.id })
      : (await keys.list(by, { accountId: me })).filter((k) => k.owner.type === 'team' && k.owner.teamId === team.id);
    const scopes = allScopes.filter((s) => scopeFitsKeyKind(s, 'personal') || (scopeFitsKeyKind(s, 'team') && roleCanGrant(s, role, team.features)));
    const create = manager
      ? html`<h2>New key</h2>
${createKeyForm({
  action: base,
  csrfToken: token,
  owners: [
    { value: team.id, label: `This team: ${team.name}` },
    { value: 'personal', label: 'Personal (yours)' },
  ],
  scopes,
  ...(state.previous ? { previous: state.previous } : {}),
})}`
      : html`<p>Only team owners and admins can make team keys. You can make personal keys on <a href="/account">your account page</a>.</p>`;
    const body = html`${teamNav(team.id)}
${errorBox(state.error)}
${state.created ? createdKeyBox(state.created.name, state.created.key) : ''}
<p>Team <strong>${team.name}</strong> · your role: ${role}</p>
<h2>${manager ? 'Every key of this team' : 'Your keys for this team'}</h2>
${keyTable(list, base, token, manager)}
${create}`;
    return sendPage(reply, status, page(`${team.name}: API keys`, viewerOf(request), body));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dashboard/:teamId/settings/api-keys', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return render(request, reply, session, {}, 200);
    });

    registerKeyActions(app, ctx, {
      base: '/dashboard/:teamId/settings/api-keys',
      render,
      back: (request) => `/dashboard/${(request.params as { teamId: string }).teamId}/settings/api-keys`,
      teamFor: (request, owner) => {
        const { teamId } = request.params as { teamId: string };
        if (owner === 'personal') return null;
        if (owner === teamId) return teamId;
        throw new AppError('invalid_request', 'Choose the owner of the key: Personal or this team.');
      },
    });
  };
}
