// The team-data services, composed over one kit. Every function takes `(actor, input)`, checks the
// operation (scope, context, feature, role: the same check the routes' guard makes, so the
// dashboard pages calling these directly meet the same gates) and the object policy first.
import type { Kit } from './kit.ts';
import { createDashboardsService } from './service-dashboards.ts';
import { createFollowsService } from './service-follows.ts';
import { createNotesService } from './service-notes.ts';
import { createPeopleService } from './service-people.ts';
import { createPositionsService } from './service-positions.ts';
import { createTargetsService } from './service-targets.ts';

export function createTeamDataService(kit: Kit) {
  const follows = createFollowsService(kit);
  const positions = createPositionsService(kit);
  return {
    personalFollows: follows.personalFollows,
    teamFollows: follows.teamFollows,
    notes: createNotesService(kit),
    positions: positions.positions,
    stance: positions.stance,
    targets: createTargetsService(kit),
    dashboards: createDashboardsService(kit),
    people: createPeopleService(kit),
  };
}

export type TeamDataService = ReturnType<typeof createTeamDataService>;
