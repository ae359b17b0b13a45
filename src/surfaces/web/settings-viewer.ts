// Who is acting on the settings pages (the account page, a team's API keys and members, the
// person's webhooks and security log): the signed-in person's own Actor or that person acting for
// the team (the same Actor a v2 request with their session gets, as dashboard/viewer.ts does).
// Pages perform only the operations listed here, through the same gates as every surface, and
// ask `may` which forms to offer.
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { KeyContext } from '../../modules/credentials/index.ts';
import type { SignedIn } from './security.ts';

/** Every operation the settings pages perform: their bindings of the catalogue (the route inventory counts them). */
export const settingsOperations = [
  'me.keys.list',
  'me.keys.create',
  'me.keys.update',
  'me.keys.revoke',
  'team.keys.list',
  'team.keys.create',
  'team.keys.update',
  'team.keys.revoke',
  'me.apps.list',
  'me.apps.disconnect',
  'team.apps.list',
  'team.apps.disconnect',
  'me.security.read',
  'team.members.list',
  'team.members.add',
  'team.members.role.set',
  'team.members.remove',
  'me.webhooks.list',
  'me.webhooks.create',
  'me.webhooks.delete',
  'me.webhooks.deliveries',
] as const satisfies readonly OperationId[];
export type SettingsOperation = (typeof settingsOperations)[number];

export interface SettingsViewer {
  actor: Actor;
  perform<Id extends SettingsOperation>(id: Id, input: OperationInput<Id>): Promise<OperationOutput<Id>>;
  /** The gate's answer; a module's policy may still refuse one object (an admin changing an owner). */
  may(id: SettingsOperation): boolean;
}

/** How a website page performs an operation as its person: every surface's gates, never counted. */
export function pageBindings<Id extends OperationId>(ctx: AppContext, actor: Actor, surface: 'web' | 'dashboard') {
  // The website's own pages are not counted against the limits of API credentials.
  const options = { call: { surface }, count: false };
  return {
    perform: async <I extends Id>(id: I, input: OperationInput<I>): Promise<OperationOutput<I>> =>
      (await ctx.performer.perform(actor, id, input, options)).result as never,
    may: (id: Id): boolean => ctx.performer.mayPerform(actor, id),
  };
}

/** The viewer for an Actor already made (a page that acts for a team it resolved itself). */
export function pagePerformer(ctx: AppContext, actor: Actor): SettingsViewer {
  return { actor, ...pageBindings<SettingsOperation>(ctx, actor, 'web') };
}

/** The person's own viewer (account page, security log). */
export function personalViewer(ctx: AppContext, session: SignedIn): SettingsViewer {
  return pagePerformer(ctx, session.actor);
}

/** The viewer where a key page acts: the team (404 for anyone outside it) or the person. */
export async function settingsViewer(ctx: AppContext, session: SignedIn, where: KeyContext): Promise<SettingsViewer> {
  if ('teamId' in where) return pagePerformer(ctx, await ctx.services.credentials.actingForTeam(session, where.teamId));
  return personalViewer(ctx, session);
}
