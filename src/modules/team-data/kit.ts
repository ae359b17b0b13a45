// What every team-data service needs: the database, the clock, public-data lookups and the change
// feed. Events are published only after the write has committed; a failed NOTIFY is logged, never
// turned into an error, because the write it reports has already happened.
import type { FastifyBaseLogger } from 'fastify';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Clock } from '../../kernel/clock.ts';
import { afterCommit } from '../../kernel/db-budget.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Analytics, Directory } from '../public-data/index.ts';
import type { TeamChange, TeamChanges } from './changes.ts';
import type { Db } from './repo.ts';

export interface Kit {
  db: Db;
  clock: Clock;
  directory: Directory;
  /** Aggregates over the public record (charts, scorecard). */
  analytics: Analytics;
  emit(event: Omit<TeamChange, 'at'>): Promise<void>;
  newId(prefix: string): string;
  /** A team member's name (or email) for the notes they wrote; null for an account that is gone. */
  accountName(accountId: string): Promise<string | null>;
  /** The matter with this record number (case-insensitive), or 404. */
  matter(record: string): Promise<{ id: string; recordNumber: string; title: string }>;
}

export function createKit(
  deps: Pick<ModuleDeps, 'db' | 'clock'> & { log: FastifyBaseLogger },
  directory: Directory,
  changes: TeamChanges,
  analytics: Analytics,
  accountName: Kit['accountName'],
): Kit {
  return {
    db: deps.db,
    clock: deps.clock,
    directory,
    analytics,
    accountName,
    async emit(event) {
      const at = deps.clock.now().toISOString();
      // In a request's unit of work the write commits with the unit: its news waits for that.
      await afterCommit(async () => {
        try {
          await changes.publish({ ...event, at });
        } catch (err) {
          deps.log.warn({ err, event }, 'team event not published');
        }
      });
    },
    newId: (prefix) => `${prefix}_${crypto.randomUUID()}`,
    async matter(record) {
      const found = (await directory.mattersByRecord([record])).get(record.toLowerCase());
      if (!found) throw new AppError('not_found', `No matter with record number "${record}".`);
      return found;
    },
  };
}
