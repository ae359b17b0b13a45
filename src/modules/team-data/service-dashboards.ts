// Analytics dashboards shared with a team. A layout save with `baseVersion` succeeds only while
// the dashboard is still at that version (optimistic concurrency: the loser gets 409 and rereads);
// without it the save is unconditional. The version starts at 1 and grows by one per layout save.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentDashboard } from './presenters.ts';
import * as repo from './repo.ts';
import { type DashboardChange, type DashboardInput, type DashboardOut, type ListInput, parseLayout } from './schema.ts';

export function createDashboardsService(kit: Kit) {
  const { db } = kit;
  const notFound = (id: string) => new AppError('not_found', `No dashboard "${id}".`);

  return {
    async list(actor: Actor, input: ListInput) {
      const teamId = policy.teamOf(actor);
      const rows = await repo.listDashboards(db, teamId, input.limit, repo.decodeCursor(input.cursor));
      return repo.page(rows, input.limit, presentDashboard);
    },
    /** One dashboard (the dashboard pages read it; the v2 table has no route for it). */
    async get(actor: Actor, input: { id: string }): Promise<DashboardOut> {
      const row = await repo.findDashboard(db, policy.teamOf(actor), input.id);
      if (!row) throw notFound(input.id);
      return presentDashboard(row);
    },
    async create(actor: Actor, input: DashboardInput): Promise<DashboardOut> {
      const teamId = policy.teamOf(actor);
      const layout = parseLayout(input.layout ?? { widgets: [] });
      const row = await repo.insertDashboard(db, { id: kit.newId('dash'), teamId, name: input.name, layout, createdBy: actor.account.id, at: kit.clock.now() });
      await kit.emit({ teamId, kind: 'dashboard', action: 'created', id: row.id });
      return presentDashboard(row);
    },
    async update(actor: Actor, input: { id: string; change: DashboardChange }): Promise<DashboardOut> {
      const teamId = policy.teamOf(actor);
      const { change } = input;
      if (change.baseVersion !== undefined && change.layout === undefined) {
        throw new AppError('invalid_request', 'baseVersion goes with a layout: it says which version the new layout was made from.');
      }
      const layout = change.layout === undefined ? undefined : parseLayout(change.layout);
      const row = await repo.updateDashboard(db, teamId, input.id, {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(layout !== undefined ? { layout } : {}),
        ...(change.baseVersion !== undefined ? { baseVersion: change.baseVersion } : {}),
        at: kit.clock.now(),
      });
      if (!row) {
        const now = await repo.findDashboard(db, teamId, input.id);
        if (!now) throw notFound(input.id);
        throw new AppError(
          'conflict',
          `The layout was saved since version ${change.baseVersion}; it is now at version ${now.version}. Reread the dashboard and reapply the change.`,
        );
      }
      await kit.emit({ teamId, kind: 'dashboard', action: 'updated', id: row.id });
      return presentDashboard(row);
    },
    async remove(actor: Actor, input: { id: string }) {
      const teamId = policy.teamOf(actor);
      if (!(await repo.deleteDashboard(db, teamId, input.id))) throw notFound(input.id);
      await kit.emit({ teamId, kind: 'dashboard', action: 'deleted', id: input.id });
      return { id: input.id, deleted: true as const };
    },
  };
}
