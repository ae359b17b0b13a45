// Claim, complete and release idempotency keys. The claim is an INSERT … ON CONFLICT DO NOTHING
// on (owner, key) made before the handler runs, so of any number of concurrent identical
// requests, on any number of instances sharing the database, exactly one runs.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';
import { ABANDONED_AFTER_MS, REPLAY_WINDOW_MS } from './policy.ts';
import { idempotencyRepo } from './repo.ts';
import type { ClaimInput, ClaimOutcome, HeldClaim, StoredAnswer } from './schema.ts';
import type { IdempotencyTables } from './tables.ts';

export interface Idempotency {
  claim(input: ClaimInput): Promise<ClaimOutcome>;
  /** Stores the answer of a claimed run; later requests with the key replay it. */
  complete(held: HeldClaim, answer: StoredAnswer): Promise<void>;
  /** Gives the key back unanswered (a 5xx), so a retry runs again. */
  release(held: HeldClaim): Promise<void>;
  /** Deletes every key older than the replay window; returns how many. */
  purgeExpired(): Promise<number>;
}

export function createIdempotencyService(deps: { db: Kysely<IdempotencyTables>; clock: Clock }): Idempotency {
  const repo = idempotencyRepo(deps.db);
  const { clock } = deps;
  return {
    async claim({ owner, key, fingerprint }) {
      const now = clock.now();
      // An expired key is free again: it is deleted here rather than read as a replay.
      await repo.purgeOwner(owner, new Date(now.getTime() - REPLAY_WINDOW_MS));
      // Two passes cover the races of a row vanishing or being taken over between statements.
      for (let attempt = 0; attempt < 3; attempt++) {
        const claim = randomUUID();
        if (await repo.insertClaim(owner, key, fingerprint, claim, now)) return { outcome: 'claimed', claim };
        const row = await repo.find(owner, key);
        if (!row) continue;
        if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
        if (row.status !== null) {
          return { outcome: 'replay', answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' } };
        }
        if (now.getTime() - new Date(row.created_at).getTime() < ABANDONED_AFTER_MS) return { outcome: 'in_progress' };
        if (await repo.takeOver(owner, key, row.claim, claim, now)) return { outcome: 'claimed', claim };
      }
      return { outcome: 'in_progress' };
    },
    async complete(held, answer) {
      await repo.complete(held.owner, held.key, held.claim, answer, clock.now());
    },
    async release(held) {
      await repo.release(held.owner, held.key, held.claim);
    },
    async purgeExpired() {
      return repo.purge(new Date(clock.now().getTime() - REPLAY_WINDOW_MS));
    },
  };
}
