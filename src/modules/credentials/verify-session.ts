// A signed-in website session as an Actor (spec "signed-in dashboard sessions are also accepted"),
// built like every credential from the database as it is now: a lost role or feature bites on the
// next request. The dashboard pages, the account pages and v2 all get their caller from here.
import type { Actor, Feature, Role } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { allScopes, type Scope, scopeFitsKeyKind } from '../../kernel/access.ts';
import type { Accounts } from '../accounts/index.ts';
import type { Sessions } from '../sessions/index.ts';
import { grantableScopes, withheldScopes } from './grantable.ts';

/** What a session may do: everything its person could put on a key of the same kind right now. */
export function sessionScopes(team: { role: Role; features: readonly Feature[] } | null): Scope[] {
  return grantableScopes('session', team, team?.role ?? null);
}

/** A verified session: the person's own (personal) Actor, and what the website needs to keep it. */
export interface SignedIn {
  actor: Actor;
  /** The cookie's value (the session token). */
  token: string;
  /** The session's CSRF token: every form and cookie-authenticated write must carry it. */
  csrfToken: string;
  expiresAt: Date;
  /** The lookup moved the expiry forward: the cookie should be sent again. */
  extended: boolean;
}

export function createSessionVerifier(sessions: Pick<Sessions, 'resolve'>, accounts: Accounts) {
  return {
    /** The signed-in person behind a session cookie value, or null when it is unknown or expired. */
    async verifySession(cookieValue: string | null | undefined): Promise<SignedIn | null> {
      if (!cookieValue) return null;
      const session = await sessions.resolve(cookieValue);
      if (!session) return null;
      const account = await accounts.get(session.account.id);
      const actor: Actor = {
        account: { id: account.id, email: account.email, name: account.name },
        team: null,
        credential: { id: session.id, type: 'session', name: 'Website session', kind: 'session', expiresAt: session.expiresAt },
        scopes: sessionScopes(null),
        limitsOwner: { type: 'account', id: account.id },
        limits: account.limits,
      };
      return { actor, token: cookieValue, csrfToken: session.csrfToken, expiresAt: session.expiresAt, extended: session.extended };
    },

    /**
     * The same session acting for one of the person's teams. A team they are not in does not exist
     * for them: 404, with a message that says why (a session names its team with X-Team-Id on v2).
     */
    async actingForTeam(signedIn: SignedIn, teamId: string): Promise<Actor & { team: NonNullable<Actor['team']> }> {
      const accountId = signedIn.actor.account.id;
      const membership = (await accounts.memberships(accountId)).find((m) => m.teamId === teamId);
      if (!membership) throw new AppError('not_found', `No team "${teamId}" among your teams: you are not a member of it.`);
      // The membership was just found: the team is theirs to see.
      const team = await accounts.teams.find(membership.teamId);
      if (!team) throw new AppError('not_found', `No team "${teamId}".`);
      const features = team.features;
      return {
        ...signedIn.actor,
        team: { id: team.id, name: team.name, role: membership.role, features },
        scopes: sessionScopes({ role: membership.role, features }),
        // A session would carry every team scope; those the role or features withhold are 403 forbidden.
        withheld: withheldScopes(
          allScopes.filter((s) => scopeFitsKeyKind(s, 'team')),
          sessionScopes({ role: membership.role, features }),
        ),
        limitsOwner: { type: 'team', id: team.id },
        limits: team.limits,
      };
    },
  };
}
