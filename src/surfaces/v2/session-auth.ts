// Signed-in dashboard sessions on v2 (spec "v2 rules" 1): the guard's SessionAuth built on the
// sessions module. The cookie says who; the optional X-Team-Id header says which of the person's
// teams the session acts for (none: personal). Writes need the session's CSRF token.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { CSRF_HEADER, SESSION_COOKIE, verifyCsrf } from '../../modules/sessions/index.ts';
import type { SessionAuth } from '../http/guard.ts';

export const TEAM_HEADER = 'x-team-id';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** One cookie's value from the Cookie header (RFC 6265 §5.4: `name=value` pairs split by "; "). */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const raw = header(request, 'cookie');
  if (!raw) return null;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
    } catch {
      return null;
    }
  }
  return null;
}

export function sessionAuth(ctx: AppContext): SessionAuth {
  return {
    async actor(request) {
      const cookie = cookieValue(request, SESSION_COOKIE);
      if (!cookie) return null;
      const teamId = header(request, TEAM_HEADER)?.trim();
      return ctx.services.sessions.actorFromSession(cookie, teamId ? { teamId } : {});
    },
    csrfValid(request) {
      return verifyCsrf(cookieValue(request, SESSION_COOKIE), header(request, CSRF_HEADER));
    },
  };
}
