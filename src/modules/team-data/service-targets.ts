// Target lists of advocacy teams, per bill: who to lobby (onTargetList) and who has been contacted
// (a subset). Only alderpersons and officials can be targets. Adding someone already on the list,
// or marking contacted someone already contacted, changes nothing and is not an error.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentTargets } from './presenters.ts';
import * as prepo from './repo-positions.ts';
import type { TargetsOut } from './schema.ts';

export function createTargetsService(kit: Kit) {
  const { db } = kit;
  const notOnList = (personId: string, record: string) => new AppError('not_found', `Person "${personId}" is not on the target list of ${record}.`);

  async function current(teamId: string, matterId: string): Promise<TargetsOut> {
    return presentTargets(await prepo.targetsOf(db, teamId, matterId));
  }

  async function changed(teamId: string, matterId: string): Promise<TargetsOut> {
    await kit.emit({ teamId, kind: 'targets', action: 'updated', id: matterId });
    return current(teamId, matterId);
  }

  async function contacted(actor: Actor, input: { record: string; personId: string }, to: boolean): Promise<TargetsOut> {
    const teamId = policy.teamOf(actor);
    const m = await kit.matter(input.record);
    if (await prepo.setContacted(db, teamId, m.id, input.personId, to)) return changed(teamId, m.id);
    if (!(await prepo.isTarget(db, teamId, m.id, input.personId))) throw notOnList(input.personId, m.recordNumber);
    if (!to) throw new AppError('not_found', `Person "${input.personId}" is not in the contacted list of ${m.recordNumber}.`);
    return current(teamId, m.id);
  }

  return {
    async get(actor: Actor, input: { record: string }): Promise<TargetsOut> {
      const teamId = policy.teamOf(actor);
      const m = await kit.matter(input.record);
      return current(teamId, m.id);
    },
    async add(actor: Actor, input: { record: string; personIds: string[] }): Promise<TargetsOut> {
      const teamId = policy.teamOf(actor);
      const m = await kit.matter(input.record);
      const ids = [...new Set(input.personIds)];
      const known = await kit.directory.existingPeople(ids, policy.targetKinds);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length)
        throw new AppError('not_found', `No alderperson or official with id ${unknown.map((id) => `"${id}"`).join(', ')}; nothing was added.`);
      const added = await prepo.addTargets(db, teamId, m.id, ids);
      return added ? changed(teamId, m.id) : current(teamId, m.id);
    },
    /** Removing someone from the list removes them from contacted too (it is the same row). */
    async remove(actor: Actor, input: { record: string; personId: string }): Promise<TargetsOut> {
      const teamId = policy.teamOf(actor);
      const m = await kit.matter(input.record);
      if (!(await prepo.removeTarget(db, teamId, m.id, input.personId))) throw notOnList(input.personId, m.recordNumber);
      return changed(teamId, m.id);
    },
    markContacted: (actor: Actor, input: { record: string; personId: string }) => contacted(actor, input, true),
    unmarkContacted: (actor: Actor, input: { record: string; personId: string }) => contacted(actor, input, false),
  };
}
