// Who is looking at a team's dashboard: the signed-in person acting for that team, as the same
// Actor a v2 request with their session would get, so every page calls the team-data services
// with the same gates as v2. Someone who is not a member of the team gets a plain 404.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { signedIn, type WebSession } from '../web/security.ts';

export interface TeamViewer {
  session: WebSession;
  actor: Actor & { team: NonNullable<Actor['team']> };
  teamId: string;
  /** Owners and admins change follows, positions, stances and targets (spec "v2 rules" 5). */
  manager: boolean;
}

export const noSuchTeam = () => new AppError('not_found', 'No such team.');

/** The viewer, or null after a 303 to sign-in (GET); 404 for anyone outside the team. */
export async function teamViewer(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<TeamViewer | null> {
  const session = signedIn(request, reply);
  if (!session) return null;
  const { teamId } = request.params as { teamId: string };
  const actor = await ctx.services.sessions.actorFromSession(session.token, { teamId });
  if (!actor?.team) throw noSuchTeam();
  const team = actor.team;
  return { session, actor: { ...actor, team }, teamId: team.id, manager: team.role === 'owner' || team.role === 'admin' };
}

/** A read a page shows a section of: its value, or the service's refusal as a message to show. */
export async function section<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return { ok: false, message: err.message };
    throw err;
  }
}

/** Every page of a list service (the dashboard shows whole sets, which are small per team). */
export async function all<T>(list: (cursor: string | undefined) => Promise<{ data: T[]; meta: { nextCursor: string | null } }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await list(cursor);
    out.push(...page.data);
    if (!page.meta.nextCursor) break;
    cursor = page.meta.nextCursor;
  }
  return out;
}
