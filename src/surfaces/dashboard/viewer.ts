// Who is looking at a team's dashboard: the signed-in person acting for that team — the same
// Actor a v2 request with their session gets (modules/credentials) — and the operations the
// pages perform as them, through the same gates as every surface. Someone who is not a member of
// the team gets a plain 404.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { signedIn } from '../web/security.ts';
import { pageBindings } from '../web/settings-viewer.ts';

/**
 * Every operation the dashboard's pages perform: the dashboard's bindings of the catalogue. A page
 * can perform nothing else (`perform` takes only these ids).
 */
export const dashboardOperations = [
  'team.legislation.list',
  'team.stance.set',
  'team.stance.clear',
  'team.stance.read',
  'team.positions.list',
  'team.positions.upsert',
  'team.positions.delete',
  'team.follows.list',
  'team.follows.create',
  'team.follows.delete',
  'team.follows.alerts.read',
  'team.follows.alerts.set',
  'team.follows.alerts.clear',
  'team.notes.list',
  'team.notes.create',
  'team.notes.update',
  'team.notes.delete',
  'team.targets.board',
  'team.targets.add',
  'team.targets.remove',
  'team.targets.contacted.add',
  'team.targets.contacted.remove',
  'team.dashboards.list',
  'team.dashboards.read',
  'team.dashboards.create',
  'team.dashboards.update',
  'team.dashboards.delete',
  'people.team.list',
  'people.public.list',
  'team.dashboards.starter',
  'team.analytics.chart',
  'team.scorecard.read',
  'search.read',
] as const satisfies readonly OperationId[];
export type DashboardOperation = (typeof dashboardOperations)[number];

export interface TeamViewer {
  actor: Actor & { team: NonNullable<Actor['team']> };
  teamId: string;
  /** The session's token (the live stream re-checks the session with it) and its CSRF token. */
  token: string;
  csrfToken: string;
  /** Performs an operation as this person for this team. */
  perform<Id extends DashboardOperation>(id: Id, input: OperationInput<Id>): Promise<OperationOutput<Id>>;
  /** Whether the person may perform it now (which forms a page offers). */
  may(id: DashboardOperation): boolean;
}

/** The viewer, or null after a 303 to sign-in (GET); 404 for anyone outside the team. */
export async function teamViewer(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<TeamViewer | null> {
  const session = signedIn(request, reply);
  if (!session) return null;
  const { teamId } = request.params as { teamId: string };
  const actor = await ctx.services.credentials.actingForTeam(session, teamId);
  return {
    actor,
    teamId: actor.team.id,
    token: session.token,
    csrfToken: session.csrfToken,
    ...pageBindings<DashboardOperation>(ctx, actor, 'dashboard'),
  };
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

/** Every page of a list (the dashboard shows whole sets, which are small per team). */
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

/**
 * Whether the session behind `token` still passes teamViewer's gate for this team (the live
 * stream asks on every change of access): signed in, and one of the team. Anything else it is
 * not, as the pages answer 404.
 */
export async function stillTeamViewer(ctx: AppContext, token: string, teamId: string): Promise<boolean> {
  const session = await ctx.services.credentials.verifySession(token);
  if (!session) return false;
  return ctx.services.credentials.actingForTeam(session, teamId).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    },
  );
}
