// The change feed (spec "Writes show up at once in dashboards that are open"): after every
// committed team write the service publishes one event. The default publisher is PostgreSQL
// NOTIFY on channel `team_events`, which reaches every instance sharing the database; listeners
// subscribe through the kernel database's listen().
import { sql } from 'kysely';
import type { Db } from './repo.ts';

export const TEAM_EVENTS_CHANNEL = 'team_events';

export interface TeamEvent {
  teamId: string;
  kind: 'follow' | 'note' | 'position' | 'stance' | 'targets' | 'dashboard';
  action: 'created' | 'updated' | 'deleted';
  /** The changed object: follow, note, position or dashboard id; for targets the matter id. */
  id: string;
  at: string;
}

export interface TeamEvents {
  publish(event: TeamEvent): Promise<void>;
}

export function pgNotifyEvents(db: Db): TeamEvents {
  return {
    async publish(event) {
      await sql`select pg_notify(${TEAM_EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
    },
  };
}
