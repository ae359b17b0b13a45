// Public data: what the surfaces (v1, v2, GraphQL, MCP, answers) call. Every method takes the
// validated query of its schema (schema.ts) and returns resources as presented there; lists return
// `{ data, meta: { nextCursor } }`. Bad input throws AppError('invalid_request'), an unknown id
// AppError('not_found').
import type { CacheChannel } from '../../kernel/coherence.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { createLegislationService } from './service.ts';
import { createBatchService } from './service-batch.ts';
import { createMoneyService } from './service-money.ts';
import { createRecordService } from './service-record.ts';
import { createSourcesService, type SyncStatus } from './service-sources.ts';
import { createWardsService } from './service-wards.ts';

export type { Page } from './cursor.ts';
export { type PersonKind, personKinds, publicPersonKinds, type SpeakerKind, speakerKinds } from './schema-people.ts';
export * as schemas from './schema.ts';
export type { Extent } from './repo-aggregates.ts';
export { recordNumberPattern } from './repo-matters.ts';
export type { MatterDetailOut, RollCallOut } from './schema.ts';

export type PublicData = ReturnType<typeof createLegislationService> &
  ReturnType<typeof createMoneyService> &
  ReturnType<typeof createSourcesService> &
  ReturnType<typeof createBatchService> &
  ReturnType<typeof createWardsService> &
  ReturnType<typeof createRecordService>;

/**
 * `syncStatus`: the scheduled ingestion's view of each source (ingest/schedule.ts), for `sources`;
 * `searches`: the public-data channel kept search pages are dropped by (kept-searches.ts).
 */
export function createPublicData(deps: ModuleDeps, options: { searches: CacheChannel; syncStatus?: SyncStatus }): PublicData {
  const legislation = createLegislationService(deps, options.searches);
  return {
    ...legislation,
    ...createMoneyService(deps),
    ...createSourcesService(deps, options.syncStatus),
    ...createBatchService(deps),
    ...createWardsService(legislation.people),
    ...createRecordService(deps),
  };
}

/** Retrieval for the answers module: look-ups by name, ward, body and date, and ranked passages. */
export { type BodyKey, type BodyRef, createRetrieval, type DayRange, type NamedPerson, type PassageRow, type Retrieval } from './service-retrieval.ts';

/** Every kind of person, all testimony and existence lookups, for team-data (which applies its own policy). */
export { createDirectory, type Directory, type DirectoryPerson, type DirectoryTestimony, type DirectoryVote, type MatterSummary } from './service-directory.ts';

/** Aggregates for the team dashboard's charts and scorecard, one statement each (team-data composes them). */
export { type Analytics, createAnalytics, type Counted, type LatestRollCall } from './service-analytics.ts';

/** What happened to a followed matter, person, body or search, as keyed items (for alerts). */
export { type ChangeFeed, type ChangeItem, createChangeFeed, type FollowedKind } from './changes.ts';

/** The 2023 ward boundaries from the bundled file, and the ward containing a point (wards.ts). */
export { parseWardBoundaries, type WardBoundary, wardAt, wardBoundaries } from './wards.ts';

/** The public record as bulk tables: columns, the SQL reading each, and what a SQLite copy indexes (modules/bulk writes them). */
export { BULK_SCHEMA_VERSION, type BulkColumn, type BulkTable, type BulkTableRead, type BulkType, bulkTables } from './bulk-tables.ts';
