// Team data: follows (personal and team), notes, positions and stances with history, target lists,
// analytics dashboards and the people routes. What surfaces and the dashboard may call.
// Tables: follows, team_notes, team_positions, team_stance_history, team_targets, team_dashboards
// (migration 0060). Every committed team write publishes a TeamEvent (events.ts).
import type { ModuleDeps } from '../../kernel/deps.ts';
import { createAnalytics, createDirectory } from '../public-data/index.ts';
import { pgNotifyEvents, type TeamEvents } from './events.ts';
import { createKit } from './kit.ts';
import { createTeamDataService, type TeamDataService } from './service.ts';

export type TeamData = TeamDataService;

/** `accountName`: a note author's name, from the accounts module (the composition root passes it). */
export function createTeamData(deps: ModuleDeps, others: { events?: TeamEvents; accountName?: (accountId: string) => Promise<string | null> } = {}): TeamData {
  const kit = createKit(deps, createDirectory(deps), others.events ?? pgNotifyEvents(deps.db), createAnalytics(deps), others.accountName ?? (async () => null));
  return createTeamDataService(kit);
}

export { TEAM_EVENTS_CHANNEL, type TeamEvent, type TeamEvents, pgNotifyEvents } from './events.ts';
export * as teamSchemas from './schema.ts';
export * as analyticsSchemas from './schema-analytics.ts';

/** Follows by id with their owner, for the alerts module (which applies its own policy). */
export { createFollowLookup, type FollowLookup, type FollowRef } from './follow-lookup.ts';
