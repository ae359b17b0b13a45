// The team's legislation at a glance, as the dashboard shows it: every bill the team follows or
// has a position on, with its public status and latest action, and for each bill the target list
// with how each target voted on it (the public roll calls). Composed here, once, so the dashboard,
// MCP and GraphQL show the same thing.
import type { Actor } from '../../kernel/actor.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentPosition, presentTargets } from './presenters.ts';
import * as repo from './repo.ts';
import * as prepo from './repo-positions.ts';
import type { BillOut, TargetBoardOut } from './schema.ts';

export function createLegislationService(kit: Kit) {
  const { db, directory } = kit;
  return {
    /** Bills the team follows or has positions on, in record-number order. */
    async bills(actor: Actor): Promise<{ data: BillOut[] }> {
      const teamId = policy.teamOf(actor);
      const [positions, followed] = await Promise.all([prepo.allPositions(db, teamId), repo.followedRefs(db, { teamId }, 'legislation')]);
      const byRecord = new Map<string, BillOut['position']>();
      for (const p of positions) byRecord.set(p.record_number, presentPosition(p));
      for (const record of followed) if (!byRecord.has(record)) byRecord.set(record, null);
      const summaries = await directory.matterSummaries([...byRecord.keys()]);
      const data = [...byRecord]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([recordNumber, position]) => {
          const m = summaries.get(recordNumber.toLowerCase());
          return { recordNumber, title: m?.title ?? null, status: m?.status ?? null, latestAction: m?.latestAction ?? null, position };
        });
      return { data };
    },
    /** A bill's target list: each target's name, whether contacted, and their votes on the bill. */
    async targetBoard(actor: Actor, input: { record: string }): Promise<TargetBoardOut> {
      const teamId = policy.teamOf(actor);
      const m = await kit.matter(input.record);
      const targets = presentTargets(await prepo.targetsOf(db, teamId, m.id));
      const [people, votes] = await Promise.all([
        directory.peopleByIds(targets.onTargetList, policy.targetKinds),
        directory.votesOn(m.id, targets.onTargetList),
      ]);
      const byId = new Map(people.map((p) => [p.id, p]));
      return {
        recordNumber: m.recordNumber,
        title: m.title,
        targets: targets.onTargetList.map((personId) => ({
          personId,
          name: byId.get(personId)?.name ?? personId,
          ward: byId.get(personId)?.ward ?? null,
          contacted: targets.contacted.includes(personId),
          votes: votes.filter((v) => v.personId === personId).map(({ rollCallId, value, date, actionName }) => ({ rollCallId, value, date, actionName })),
        })),
      };
    },
  };
}
