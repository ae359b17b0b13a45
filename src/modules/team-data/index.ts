// Team data: follows (personal and team), notes, positions and stances with history, target lists,
// analytics dashboards and the people routes. What surfaces and the dashboard may call.
// Tables: follows, team_notes, team_positions, team_stance_history, team_targets, team_dashboards
// (migration 0060). Every committed team write publishes a TeamChange (changes.ts).
import type { ModuleDeps } from '../../kernel/deps.ts';
import { createAnalytics, createDirectory } from '../public-data/index.ts';
import { pgNotifyChanges, type TeamChanges } from './changes.ts';
import { createKit } from './kit.ts';
import { createTeamDataService, type TeamDataService } from './service.ts';

export type TeamData = TeamDataService;

/** `accountName`: a note author's name, from the accounts module (the composition root passes it). */
export function createTeamData(
  deps: ModuleDeps,
  others: { changes?: TeamChanges; accountName?: (accountId: string) => Promise<string | null> } = {},
): TeamData {
  const kit = createKit(
    deps,
    createDirectory(deps),
    others.changes ?? pgNotifyChanges(deps.db),
    createAnalytics(deps),
    others.accountName ?? (async () => null),
  );
  return createTeamDataService(kit);
}

export { TEAM_CHANGES_CHANNEL, type TeamChange, type TeamChanges, pgNotifyChanges } from './changes.ts';
export * as teamSchemas from './schema.ts';
export * as analyticsSchemas from './schema-analytics.ts';

/** Follows by id with their owner, for the alerts module (which applies its own policy). */
export { createFollowLookup, type FollowLookup, type FollowRef } from './follow-lookup.ts';
