// Signed-in dashboard sessions on v2 (spec "v2 rules" 1): the guard's SessionAuth over the
// credentials module's session check. The cookie says who; the optional X-Team-Id header says
// which of the person's teams the session acts for (none: personal). Writes need the session's
// CSRF token.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { CSRF_HEADER, SESSION_COOKIE, verifyCsrf } from '../../modules/sessions/index.ts';
import type { SessionAuth } from '../http/guard.ts';

export const TEAM_HEADER = 'x-team-id';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function sessionAuth(ctx: AppContext): SessionAuth {
  const { credentials } = ctx.services;
  return {
    async actor(request, known) {
      const signedIn = await credentials.verifySession(request.cookies[SESSION_COOKIE]);
      if (!signedIn) return null;
      known(signedIn.actor);
      const teamId = header(request, TEAM_HEADER)?.trim();
      return teamId ? credentials.actingForTeam(signedIn, teamId) : signedIn.actor;
    },
    csrfValid(request) {
      return verifyCsrf(request.cookies[SESSION_COOKIE] ?? null, header(request, CSRF_HEADER));
    },
  };
}
