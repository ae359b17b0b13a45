// Website sign-in (email links), sessions and their CSRF tokens: what other modules and surfaces
// may call. Tables: signin_links, sessions (migration 0050).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { Mailer } from '../../kernel/mail.ts';
import type { Accounts } from '../accounts/index.ts';
import { createSessionActor } from './actor.ts';
import { createSessionsService, type SessionsService } from './service.ts';

export interface Sessions extends SessionsService {
  /** The Actor of a session cookie value (credential type 'session'), or null. */
  actorFromSession(cookieValue: string | null | undefined, options?: { teamId?: string }): Promise<Actor | null>;
}

export function createSessions(deps: ModuleDeps, others: { accounts: Accounts; mailer: Mailer }): Sessions {
  const service = createSessionsService(deps, others);
  return { ...service, actorFromSession: createSessionActor(service, others.accounts) };
}

/** The session cookie's name, for surfaces that accept a signed-in session. */
export const SESSION_COOKIE = 'ct_session';
/** The header a cookie-authenticated API write carries its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

export { SESSION_TTL_SECONDS, type SessionInfo, type StartedSession } from './service.ts';
export { sessionScopes } from './actor.ts';
export { csrfTokenFor, verifyCsrf } from './tokens.ts';
