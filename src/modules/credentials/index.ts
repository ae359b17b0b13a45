// API keys and the credential check (credential → Actor), and the request limits: what other
// modules, the surfaces and the CLI may call. Tables: api_keys (migration 0003).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { DB } from '../../db-schema.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { Coherence } from '../../kernel/coherence.ts';
import type { Database } from '../../kernel/db.ts';
import type { Accounts } from '../accounts/index.ts';
import type { SecurityLog } from '../security-log/index.ts';
import type { Mailer } from '../../kernel/mail.ts';
import { type AgentRegistration, createAgentRegistration } from './agent-registration/service.ts';
import { type ApiKeys, createApiKeys, keyCredential } from './api-keys/service.ts';
import * as keysRepo from './api-keys/repo.ts';
import { createLimits, type Limits } from './limits/index.ts';
import { createVerify, type VerifyInput } from './verify.ts';
import { createSessionVerifier, type SignedIn } from './verify-session.ts';
import type { Sessions } from '../sessions/index.ts';

export interface Credentials {
  /** Builds the caller of a key from the database as it is now; throws 401 unauthorized or 403 ip_not_allowed. */
  verify(input: VerifyInput): Promise<Actor>;
  /** verify's answer without waiting when the credential is kept in memory (./verify.ts); undefined: call verify. */
  verifyNow(input: VerifyInput): Actor | undefined;
  /** The signed-in person behind a website session cookie (a personal Actor), or null. */
  verifySession(cookieValue: string | null | undefined): Promise<SignedIn | null>;
  /** That session acting for one of the person's teams; 404 for a team they are not in. */
  actingForTeam(signedIn: SignedIn, teamId: string): Promise<Actor & { team: NonNullable<Actor['team']> }>;
  keys: ApiKeys;
  /** Agent registration: request by email, approval page, claim (agent-registration/). */
  registration: AgentRegistration;
  limits: Limits;
  close(): Promise<void>;
}

export function createCredentials(
  deps: ModuleDeps,
  others: {
    accounts: Accounts;
    sessions: Sessions;
    database: Database<DB>;
    caches: Pick<Coherence, 'power' | 'settlePower'>;
    securityLog: Pick<SecurityLog, 'credential'>;
    mailer: Mailer;
  },
): Credentials {
  const { securityLog } = others;
  const keys = createApiKeys(deps, others.accounts, others.caches.settlePower, (event) => securityLog.credential(event));
  // A creator leaving a team loses their team keys in the same transaction (spec "Rules" 2), and
  // each revocation is an event committed with it.
  others.accounts.onMembershipEnded(async (trx, ended) => {
    const reason = 'its creator left the team';
    const revoked = await keysRepo.revokeTeamKeysOf(trx, ended.teamId, ended.accountId, deps.clock.now(), reason);
    for (const row of revoked) {
      await securityLog.credential(
        { type: 'credential.revoked', accountId: row.account_id, credential: keyCredential(row), via: 'membership_ended', reason },
        { within: trx },
      );
    }
  });
  const limits = createLimits(deps);
  return {
    ...createVerify(deps, others.caches.power),
    ...createSessionVerifier(others.sessions, others.accounts),
    keys,
    registration: createAgentRegistration(deps, {
      keys,
      mailer: others.mailer,
      findOrCreateAccount: others.sessions.findOrCreateAccount,
      markEmailVerified: others.accounts.markEmailVerified,
    }),
    limits,
    close: () => limits.close(),
  };
}

export { canListTeamKeys, canManageKey } from './api-keys/policy.ts';
export { type GrantKind, grantableScopes } from './grantable.ts';
export type { ApiKeyView, KeyKind } from './api-keys/schema.ts';
export type { ApiKeys, CreatedKey, CreateKeyInput, KeyContext } from './api-keys/service.ts';
/** The row the credential check reads for a key; an OAuth access token's row has the same columns. */
export type { VerifyRow } from './api-keys/repo.ts';
export { DEFAULT_SCOPE, insufficientScopeError, resourceMetadataUrl, type Surface, unauthorizedError } from './challenge.ts';
export type { LimitUsage, Limits } from './limits/index.ts';
export { hashCredential, randomBase62, withholdKeyValues } from './token.ts';
export type { VerifyInput } from './verify.ts';
export { type SignedIn, sessionScopes } from './verify-session.ts';
