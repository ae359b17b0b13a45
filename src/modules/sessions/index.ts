// Website sign-in (email links), sessions and their CSRF tokens: what other modules and surfaces
// may call. Tables: signin_links, sessions (migration 0050).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Mailer } from '../../kernel/mail.ts';
import type { Accounts } from '../accounts/index.ts';
import { createSessionsService, type SessionsService } from './service.ts';

/** The sign-in links and sessions; the credentials module turns a session into an Actor. */
export type Sessions = SessionsService;

export function createSessions(deps: ModuleDeps, others: { accounts: Accounts; mailer: Mailer }): Sessions {
  return createSessionsService(deps, others);
}

/** The session cookie's name, for surfaces that accept a signed-in session. */
export const SESSION_COOKIE = 'ct_session';
/** The header a cookie-authenticated API write carries its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

export { SESSION_TTL_SECONDS, type SessionInfo, type StartedSession } from './service.ts';
export { csrfTokenFor, verifyCsrf } from './tokens.ts';
