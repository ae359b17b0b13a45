// The team-data services, composed over one kit. Every function takes `(actor, input)` and applies
// the object policy (gate 3) first. They run only as operations (operations.ts) performed through
// kernel/perform.ts, which has already checked scope, context, feature and role (gate 2).
import type { Kit } from './kit.ts';
import { createAnalyticsService } from './service-analytics.ts';
import { createDashboardsService } from './service-dashboards.ts';
import { createFollowsService } from './service-follows.ts';
import { createLegislationService } from './service-legislation.ts';
import { createNotesService } from './service-notes.ts';
import { createPeopleService } from './service-people.ts';
import { createPositionsService } from './service-positions.ts';
import { createTargetsService } from './service-targets.ts';

export function createTeamDataService(kit: Kit) {
  const follows = createFollowsService(kit);
  const positions = createPositionsService(kit);
  return {
    followerCount: follows.followerCount,
    personalFollows: follows.personalFollows,
    teamFollows: follows.teamFollows,
    notes: createNotesService(kit),
    positions: positions.positions,
    stance: positions.stance,
    targets: createTargetsService(kit),
    dashboards: createDashboardsService(kit),
    people: createPeopleService(kit),
    legislation: createLegislationService(kit),
    analytics: createAnalyticsService(kit),
  };
}

export type TeamDataService = ReturnType<typeof createTeamDataService>;
