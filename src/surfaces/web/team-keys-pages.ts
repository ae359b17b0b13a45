// Dashboard → Settings → API keys of one team. The page performs the team's key and app operations
// as the signed-in person acting for the team (settings-viewer.ts): what they see (every key for
// owners and admins, the team keys they made for other members) and which scopes they may grant
// (those their session holds) are the operations' answers. The form here makes team keys only:
// personal keys are made on the account page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { all } from '../dashboard/viewer.ts';
import { connectedAppsTable } from './app-views.ts';
import { type KeyPageState, registerKeyActions } from './key-actions.ts';
import { createdKeyBox, createKeyForm, keyTable } from './key-views.ts';
import { errorBox, type Html, page, sendPage } from './layout.ts';
import { type SignedIn, signedIn } from './security.ts';
import { settingsViewer } from './settings-viewer.ts';
import { viewerOf } from './signin-pages.ts';

export function teamNav(teamId: string): Html {
  return html`<nav class="team" aria-label="Team"><a href="/dashboard/${teamId}">Team dashboard</a> · <a href="/account">Your account</a> · Settings: <a href="/dashboard/${teamId}/settings/api-keys">API keys</a> ·
<a href="/dashboard/${teamId}/settings/members">Members</a></nav>`;
}

const teamIdOf = (request: FastifyRequest) => (request.params as { teamId: string }).teamId;

export function teamKeysPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: KeyPageState, status: number) {
    const v = await settingsViewer(ctx, session, { teamId: teamIdOf(request) });
    const team = v.actor.team!;
    const role = team.role;
    const [keys, apps] = await Promise.all([
      all((cursor) => v.perform('team.keys.list', { limit: 200, ...(cursor ? { cursor } : {}) })),
      v.perform('team.apps.list', {}),
    ]);
    const manage = v.may('team.keys.create');
    const view = { manage, keys, grantableScopes: manage ? v.actor.scopes : [] };
    const token = session.csrfToken;
    const base = `/dashboard/${team.id}/settings/api-keys`;
    const create = view.manage
      ? html`<h2>New team key</h2>
${createKeyForm({
  action: base,
  csrfToken: token,
  owners: [{ value: team.id, label: `This team: ${team.name}` }],
  scopes: view.grantableScopes,
  ...(state.previous ? { previous: state.previous } : {}),
})}
<p>Personal keys are made on <a href="/account">your account page</a>.</p>`
      : html`<p>Only team owners and admins can make team keys. You can make personal keys on <a href="/account">your account page</a>.</p>`;
    const body = html`${teamNav(team.id)}
${errorBox(state.error)}
${state.created ? createdKeyBox(state.created.name, state.created.key) : ''}
<p>Team <strong>${team.name}</strong> · your role: ${role}</p>
<h2>${view.manage ? 'Every key of this team' : 'Your keys for this team'}</h2>
${keyTable(view.keys, base, token, view.manage)}
<h2>${view.manage ? 'Apps connected for this team' : 'Apps you connected for this team'}</h2>
${connectedAppsTable(apps.data, base, token, view.manage)}
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
      back: (request) => `/dashboard/${teamIdOf(request)}/settings/api-keys`,
      // Only this team's keys: a key is made for it, and only its keys are changed from here.
      context: (request) => ({ teamId: teamIdOf(request) }),
    });
  };
}
