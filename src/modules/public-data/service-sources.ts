// Source freshness for /api/v1/sources: what source_sync records of each source's last runs, with
// its schedule and latest sync job where this deployment syncs it on a schedule. Read from the
// database on every call (the route is not cached): job state lives in the queue's own tables.
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { SourceSync } from './ingest/schedule.ts';
import { presentSource } from './presenters-sources.ts';
import { sourceStatuses } from './repo-people.ts';
import type { SourceOut } from './schema.ts';

/** Schedules and jobs by source (ingest/schedule.ts), for the sources named and every scheduled one. */
export type SyncStatus = (sources: readonly string[]) => Promise<Map<string, SourceSync>>;

export function createSourcesService(deps: ModuleDeps, syncStatus: SyncStatus = async () => new Map()) {
  const { db } = deps;
  return {
    async sources(): Promise<{ data: SourceOut[] }> {
      const rows = await sourceStatuses(db);
      const sync = await syncStatus(rows.map((r) => r.source));
      const recorded = new Map(rows.map((r) => [r.source as string, r]));
      // A scheduled source that has never run yet is listed too, with empty freshness.
      const names = [...new Set([...recorded.keys(), ...sync.keys()])].sort();
      return { data: names.map((name) => presentSource(recorded.get(name) ?? { source: name }, sync.get(name) ?? null)) };
    },
  };
}
