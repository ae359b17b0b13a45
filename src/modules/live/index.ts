// Live updates of open dashboards (spec "v2 rules" 7): the LiveBus that team-data publishes
// through, and the hub that fans events out to each team's open streams. No tables of its own.
import { sql } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { DB } from '../../db-schema.ts';
import type { Database } from '../../kernel/db.ts';
import type { Accounts } from '../accounts/index.ts';
import { TEAM_CHANGES_CHANNEL } from '../team-data/index.ts';
import { pgLiveBus, redisLiveBus, type LiveBus } from './bus.ts';
import type { MembershipEvent } from './events.ts';
import { createHub, type Hub } from './hub.ts';

export interface Live {
  /** Where team events are published (team-data's `changes`). */
  bus: LiveBus;
  hub: Hub;
  close(): Promise<void>;
}

export function createLive(deps: ModuleDeps, others: { database: Database<DB>; accounts: Accounts }): Live {
  const pg = pgLiveBus(others.database);
  const bus = deps.config.redisUrl ? redisLiveBus(deps.config.redisUrl) : pg;
  // A membership ends inside the accounts transaction; NOTIFY inside it is delivered only if, and
  // when, it commits (a rolled-back removal closes nothing). That is why membership events always
  // go through PostgreSQL, also when Redis carries the team events.
  others.accounts.onMembershipEnded(async (trx, ended) => {
    const event: MembershipEvent = { teamId: ended.teamId, kind: 'membership', action: 'deleted', id: ended.accountId, at: deps.clock.now().toISOString() };
    await sql`select pg_notify(${TEAM_CHANGES_CHANNEL}, ${JSON.stringify(event)})`.execute(trx);
  });
  const hub = createHub(bus === pg ? [pg.subscribe] : [pg.subscribe, bus.subscribe], deps.log);
  return {
    bus,
    hub,
    async close() {
      await hub.close();
      await bus.close();
    },
  };
}

export type { LiveBus } from './bus.ts';
export { pgLiveBus, redisLiveBus } from './bus.ts';
export type { LiveEvent, MembershipEvent } from './events.ts';
export { parseLiveEvent } from './events.ts';
export type { Hub, LiveStream } from './hub.ts';
