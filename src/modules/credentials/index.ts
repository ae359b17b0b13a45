// API keys and the credential check (credential → Actor), and the request limits: what other
// modules, the surfaces and the CLI may call. Tables: api_keys (migration 0003).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { DB } from '../../db-schema.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { Coherence } from '../../kernel/coherence.ts';
import type { Database } from '../../kernel/db.ts';
import type { Accounts } from '../accounts/index.ts';
import { type ApiKeys, createApiKeys } from './api-keys/service.ts';
import * as keysRepo from './api-keys/repo.ts';
import { createLimits, type Limits } from './limits/index.ts';
import { createVerify, type VerifyInput } from './verify.ts';

export interface Credentials {
  /** Builds the caller from the database as it is now; throws 401 unauthorized or 403 ip_not_allowed. */
  verify(input: VerifyInput): Promise<Actor>;
  keys: ApiKeys;
  limits: Limits;
  close(): Promise<void>;
}

export function createCredentials(
  deps: ModuleDeps,
  others: { accounts: Accounts; database: Database<DB>; caches: Pick<Coherence, 'power' | 'settlePower'> },
): Credentials {
  const keys = createApiKeys(deps, others.accounts, others.caches.settlePower);
  // A creator leaving a team loses their team keys in the same transaction (spec "Rules" 2).
  others.accounts.onMembershipEnded(async (trx, ended) => {
    await keysRepo.revokeTeamKeysOf(trx, ended.teamId, ended.accountId, deps.clock.now(), 'its creator left the team');
  });
  const limits = createLimits(deps);
  return {
    verify: createVerify(deps, others.caches.power),
    keys,
    limits,
    close: () => limits.close(),
  };
}

export type { ApiKeyView, KeyKind } from './api-keys/schema.ts';
export type { CreatedKey, CreateKeyInput } from './api-keys/service.ts';
export { resourceMetadataUrl, type Surface, unauthorizedError } from './challenge.ts';
export type { LimitUsage, Limits } from './limits/index.ts';
export { hashCredential, randomBase62 } from './token.ts';
export type { VerifyInput } from './verify.ts';
