// Other-team cases of the members routes for the security matrix: team A's owner is a member of
// team A only; team B's owner (same scopes) names them and gets 404, and nothing changes.
import type { OperationId } from '../../src/catalogue.ts';
import type { OtherTeamCase } from './route-table.ts';

const teamAOwner = (body?: unknown): OtherTeamCase => ({
  async setup(f) {
    return { params: { accountId: f.ownerAccountId }, ...(body === undefined ? {} : { body }) };
  },
});

export const membersCases: Partial<Record<OperationId, OtherTeamCase>> = {
  'team.members.role.set': teamAOwner({ role: 'member' }),
  'team.members.remove': teamAOwner(),
};
