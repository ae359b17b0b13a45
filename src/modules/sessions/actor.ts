// A signed-in website session as an Actor, so the JSON API can accept the dashboard's session
// cookie (spec "signed-in dashboard sessions are also accepted"). Built from the database on every
// call, like any credential: a lost role or feature bites on the next request.
import type { Actor, Feature, Role } from '../../kernel/actor.ts';
import { roleCanGrant, type Scope, scopeCatalogue, scopeFitsKeyKind } from '../../kernel/operations.ts';
import { type Accounts, asAccount } from '../accounts/index.ts';
import type { SessionsService } from './service.ts';

/** What a session may do: everything its person could put on a key of the same kind right now. */
export function sessionScopes(team: { role: Role; features: readonly Feature[] } | null): Scope[] {
  const all = Object.keys(scopeCatalogue) as Scope[];
  if (!team) return all.filter((s) => scopeFitsKeyKind(s, 'personal'));
  return all.filter((s) => scopeFitsKeyKind(s, 'team') && roleCanGrant(s, team.role, team.features));
}

export function createSessionActor(sessions: SessionsService, accounts: Accounts) {
  /**
   * The actor behind a session cookie value, or null when the session is unknown or expired.
   * With `teamId` the session acts for that team, and only if the person is a member of it.
   */
  return async function actorFromSession(cookieValue: string | null | undefined, options: { teamId?: string } = {}): Promise<Actor | null> {
    const session = await sessions.resolve(cookieValue);
    if (!session) return null;
    const account = await accounts.get(session.account.id);
    const credential = { id: session.id, type: 'session' as const, name: 'Website session', kind: 'session' as const, expiresAt: session.expiresAt };
    const base = { account: { id: account.id, email: account.email, name: account.name }, credential };
    if (!options.teamId) {
      return { ...base, team: null, scopes: sessionScopes(null), limitsOwner: { type: 'account', id: account.id }, limits: account.limits };
    }
    const membership = (await accounts.memberships(account.id)).find((m) => m.teamId === options.teamId);
    if (!membership) return null;
    const team = await accounts.teams.get(asAccount(account.id), membership.teamId);
    return {
      ...base,
      team: { id: team.id, name: team.name, role: membership.role, features: team.features },
      scopes: sessionScopes({ role: membership.role, features: team.features }),
      limitsOwner: { type: 'team', id: team.id },
      limits: team.limits,
    };
  };
}
