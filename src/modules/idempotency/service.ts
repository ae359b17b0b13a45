// Claim and complete idempotency keys (decisions.md "Envelopes and limits": one effect per key,
// its answer replayed for 24 hours). Both run inside the request's unit of work
// (kernel/db-unit.ts): the claim is a lock that lasts as long as that transaction, and the answer
// is written in it, beside the write's own effect. So a retry either finds the committed answer,
// or finds nothing committed and may run again; a run whose process died holds nothing.
import type { Kysely } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';
import { inRequestUnit } from '../../kernel/db-budget.ts';
import { REPLAY_WINDOW_MS } from './policy.ts';
import { idempotencyRepo } from './repo.ts';
import type { ClaimInput, ClaimOutcome, HeldClaim, StoredAnswer } from './schema.ts';
import type { IdempotencyTables } from './tables.ts';

export interface Idempotency {
  /** Without claiming: a finished answer of the same request, a different request's key, or free ('claimed' unsaid). */
  lookup(input: ClaimInput): Promise<Exclude<ClaimOutcome, { outcome: 'in_progress' }>>;
  /** In the request's unit of work: holds the key until the unit ends, or says why not. */
  claim(input: ClaimInput): Promise<ClaimOutcome>;
  /** In the same unit: stores the answer of the claimed run; it commits with the run's effect. */
  complete(held: HeldClaim, answer: StoredAnswer): Promise<void>;
  /** Deletes every key older than the replay window; returns how many. */
  purgeExpired(): Promise<number>;
}

function requireUnit(): void {
  // Outside a unit the lock would end with its own statement: nothing would be held.
  if (!inRequestUnit()) throw new Error('An idempotency key is claimed and completed inside the request unit of work.');
}

export function createIdempotencyService(deps: { db: Kysely<IdempotencyTables>; clock: Clock }): Idempotency {
  const repo = idempotencyRepo(deps.db);
  const { clock } = deps;
  const since = () => new Date(clock.now().getTime() - REPLAY_WINDOW_MS);
  async function lookup({ owner, key, fingerprint }: ClaimInput): Promise<Exclude<ClaimOutcome, { outcome: 'in_progress' }>> {
    const row = await repo.find(owner, key, since());
    if (!row) return { outcome: 'claimed' };
    if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
    return { outcome: 'replay', answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' } };
  }
  return {
    lookup,
    async claim(input) {
      requireUnit();
      if (!(await repo.tryLock(input.owner, input.key))) return { outcome: 'in_progress' };
      // Under the lock: an answer committed since the lookup is found now (read committed).
      return lookup(input);
    },
    async complete(held, answer) {
      requireUnit();
      // An expired answer of the key (or of the owner's others) is replaced here.
      await repo.purgeOwner(held.owner, since());
      await repo.store(held.owner, held.key, held.fingerprint, answer, clock.now());
    },
    async purgeExpired() {
      return repo.purge(new Date(clock.now().getTime() - REPLAY_WINDOW_MS));
    },
  };
}
