// The earliest `updated_at` of the votes, kept while the public record stays as it was: an
// `updated_since` at or before it keeps every vote, so the list leaves the filter out of its
// statement and answers the same rows. A sync client's first request (an `updated_since` far in
// the past, to take everything) then runs the same statement as a plain list, which for a person's
// votes PostgreSQL plans once per connection; with the filter in it, the prepared statement's
// generic plan is estimated dearer than a custom one (a third of the votes assumed to pass), so
// PostgreSQL planned it again on every request (0.3 ms of a 0.6 ms statement on the benchmark's
// database). A recent `updated_since` keeps its filter, and its custom plan through the
// `updated_at` index.
//
// Kept with the public-data channel of kernel/coherence.ts: any change to the public record, at
// any instance, drops it (a value read across a change belongs to the generation it began in, so
// the next request reads again). Rows are
// written with `updated_at` = now() (the database's default, and the ingest's upserts), so the
// earliest can only move later: a floor read a moment ago is never above the true one.
import { sql } from 'kysely';
import type { CacheChannel } from '../../kernel/coherence.ts';
import type { Db } from './repo-sql.ts';

export interface UpdatedFloor {
  /** Whether every vote was updated at or after `since` (an ISO date-time): the filter keeps them all. */
  covers(since: string): Promise<boolean>;
}

export function createVotesUpdatedFloor(db: Db, channel: CacheChannel): UpdatedFloor {
  /**
   * The floor in ms since the epoch (null: no votes) as read for a generation of the channel: the
   * read under way is shared by the requests of that generation, and its answer kept for them.
   */
  let floor: { generation: number; value: Promise<number | null> } | null = null;
  async function read(): Promise<number | null> {
    // The index on votes (updated_at) answers this with its first entry. Cut to the millisecond
    // (a JavaScript date's precision, which the filter compares at too), towards the past, so
    // the floor is never above a vote's own microseconds.
    const { rows } = await sql<{ floor: Date | null }>`select date_trunc('milliseconds', min(updated_at)) as floor from votes`.execute(db);
    return rows[0]?.floor ? new Date(rows[0].floor).getTime() : null;
  }
  return {
    async covers(since) {
      if (!channel.usable()) return false;
      const generation = channel.generation();
      if (floor?.generation !== generation) {
        const value = read();
        floor = { generation, value };
        // A failed read is not kept: the next request reads again.
        value.catch(() => {
          if (floor?.value === value) floor = null;
        });
      }
      const at = await floor.value;
      return at !== null && Date.parse(since) <= at;
    },
  };
}
