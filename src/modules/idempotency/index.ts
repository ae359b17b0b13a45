// Idempotent writes: what other modules and surfaces may call.
import type { ModuleDeps } from '../../kernel/deps.ts';
import { createIdempotencyService, type Idempotency } from './service.ts';

export { checkKey, isStored, keptHeaders, REPLAY_WINDOW_MS, requestFingerprint } from './policy.ts';
export type { ClaimOutcome, HeldClaim, IdempotencyOwner, StoredAnswer } from './schema.ts';
export type { Idempotency } from './service.ts';

export function createIdempotency(deps: Pick<ModuleDeps, 'db' | 'clock'>): Idempotency {
  return createIdempotencyService(deps);
}
