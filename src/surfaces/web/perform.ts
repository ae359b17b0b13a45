// The settings pages' bindings of the catalogue, as dashboard/viewer.ts does for the dashboard:
// each page performs its operations as the signed-in person — their session's Actor, personal or
// acting for one of their teams — through the same gates as every surface, never counted (the
// limits are those of API credentials). `perform` takes only the page's own operation ids.
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';

/** Every operation the settings pages perform (the route inventory counts these as bound). */
export const settingsOperations = [
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

export interface PagePerformer {
  actor: Actor;
  perform<Id extends SettingsOperation>(id: Id, input: OperationInput<Id>): Promise<OperationOutput<Id>>;
  /** Whether the person may perform it now (which forms a page offers). */
  may(id: SettingsOperation): boolean;
}

export function pagePerformer(ctx: AppContext, actor: Actor): PagePerformer {
  const options = { call: { surface: 'web' as const }, count: false };
  return {
    actor,
    perform: async (id, input) => (await ctx.operations.perform(actor, id, input, options)).result as never,
    // "May" is the gate's answer; the accounts policy may still refuse one member (an admin and an owner).
    may: (id) => ctx.operations.mayPerform(actor, id),
  };
}
