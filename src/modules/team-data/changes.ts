// The change feed (spec "Writes show up at once in dashboards that are open"): after every
// committed team write the service publishes one event. The default publisher is PostgreSQL
// NOTIFY on channel `team_events`, which reaches every instance sharing the database; listeners
// subscribe through the kernel database's listen().
import { sql } from 'kysely';
import type { Db } from './repo.ts';

// The channel keeps its first name: instances of the previous release listen on it during a rolling deploy.
export const TEAM_CHANGES_CHANNEL = 'team_events';

export interface TeamChange {
  teamId: string;
  kind: 'follow' | 'note' | 'position' | 'stance' | 'targets' | 'dashboard';
  action: 'created' | 'updated' | 'deleted';
  /** The changed object: follow, note, position or dashboard id; for targets the matter id. */
  id: string;
  at: string;
}

export interface TeamChanges {
  publish(event: TeamChange): Promise<void>;
}

export function pgNotifyChanges(db: Db): TeamChanges {
  return {
    async publish(event) {
      await sql`select pg_notify(${TEAM_CHANGES_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
    },
  };
}
