// The account page: who is signed in, their teams and role in each, their API keys (made here:
// personal keys) and connected apps — performed as the person's own operations
// (settings-viewer.ts) — and signing out of every browser at once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { all } from '../dashboard/viewer.ts';
import { connectedAppsTable } from './app-views.ts';
import { registerKeyActions } from './key-actions.ts';
import type { KeyPageState } from './key-actions.ts';
import { createdKeyBox, createKeyForm, keyTable } from './key-views.ts';
import { csrfField, errorBox, page, sendPage } from './layout.ts';
import { type SignedIn, signedIn } from './security.ts';
import { personalViewer } from './settings-viewer.ts';
import { viewerOf } from './signin-pages.ts';

export function accountPages(ctx: AppContext) {
  const { accounts, sessions } = ctx.services;

  async function render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: KeyPageState, status: number) {
    const me = session.actor.account;
    const token = session.csrfToken;
    const v = personalViewer(ctx, session);
    const [memberships, keys, sessionCount, apps] = await Promise.all([
      accounts.memberships(me.id),
      all((cursor) => v.perform('me.keys.list', { limit: 200, ...(cursor ? { cursor } : {}) })),
      sessions.countSessions(me.id),
      v.perform('me.apps.list', {}),
    ]);
    const teams = memberships.length
      ? html`<table><thead><tr><th>Team</th><th>Your role</th><th>Dashboard and settings</th></tr></thead><tbody>
${memberships.map(
  (m) => html`<tr><td>${m.teamName}</td><td>${m.role}</td>
<td><a href="/dashboard/${m.teamId}"><strong>Dashboard</strong></a> · <a href="/dashboard/${m.teamId}/settings/api-keys">API keys</a> · <a href="/dashboard/${m.teamId}/settings/members">Members</a></td></tr>`,
)}</tbody></table>`
      : html`<p>You are not in any team.</p>`;
    const body = html`${errorBox(state.error)}
${state.created ? createdKeyBox(state.created.name, state.created.key) : ''}
<p>Email: <strong>${me.email}</strong>${me.name ? html` · Name: ${me.name}` : ''}</p>
<p>Your <a href="/account/follows">follows and alerts</a> · Settings: <a href="/account/webhooks">Webhooks</a> · <a href="/account/security">Security log</a></p>
<h2>Teams</h2>
${teams}
<h2>Your API keys</h2>
<p>Keys you made: personal keys and the team keys you made for a team.</p>
${keyTable(keys, '/account/keys', token, false)}
<h2>New personal key</h2>
${createKeyForm({ action: '/account/keys', csrfToken: token, owners: [{ value: 'personal', label: 'Personal' }], scopes: v.actor.scopes, ...(state.previous ? { previous: state.previous } : {}) })}
<p>Team keys are made under a team's <em>Settings → API keys</em> by its owners and admins.</p>
<h2>Connected apps</h2>
<p>Apps you gave access with OAuth, for you or for a team. Disconnecting one ends its access at once.</p>
${connectedAppsTable(apps.data, '/account/keys', token, false)}
<h2>Sessions</h2>
<p>You are signed in on ${sessionCount} browser${sessionCount === 1 ? '' : 's'}.</p>
<form method="post" action="/signout/everywhere">${csrfField(token)}<button type="submit">Sign out everywhere</button></form>`;
    return sendPage(reply, status, page('Your account', viewerOf(request), body));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/account', async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return render(request, reply, session, {}, 200);
    });

    registerKeyActions(app, ctx, {
      base: '/account/keys',
      render,
      back: () => '/account',
      context: (_request, session) => ({ accountId: session.actor.account.id }),
    });
  };
}
