// Accounts, teams, memberships, roles, features and limit overrides: what other modules, the CLI
// and the dashboard may call. Tables: accounts, teams, memberships (migration 0003).
import type { ModuleDeps } from '../../kernel/deps.ts';
import { type AccountsService, createAccountsService } from './service.ts';

export type Accounts = AccountsService;

/**
 * `settlePower` runs after every committed change of roles, memberships, features or limits, so
 * the change bites on the next request at every instance (kernel/coherence.ts).
 */
export function createAccounts(deps: ModuleDeps, others: { settlePower: () => Promise<void> }): Accounts {
  return createAccountsService(deps, others.settlePower);
}

/** Legacy: how the key, OAuth-app and security-log services still name their caller (./acting.ts). */
export { canManageMembers } from './policy.ts';
export {
  type AccountView,
  defaultLimits,
  effectiveLimits,
  type LimitChange,
  type LimitOverrides,
  type MembershipView,
  type TeamMemberView,
  type TeamView,
} from './schema.ts';
export type { MemberAdded, MemberAddedHook, MemberChange, MembershipEndedHook } from './service.ts';
