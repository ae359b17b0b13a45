// Who may do what to accounts and teams (house style, gate 3). Pure functions: the service looks
// up the facts (the caller's current role) and asks here before any change. The caller is an
// Actor (kernel/actor.ts); the operator (the CLI) has full power over accounts and teams, and is
// named explicitly so every decision says so, rather than services having a path that skips this.
import { type Caller, isOperator, type Role } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';

const forbidden = (message: string) => new AppError('forbidden', message);

/** Features and limits are switched by the operator only (decisions.md, "Accounts, teams"). */
export function requireOperator(by: Caller, what: string): void {
  if (!isOperator(by)) throw forbidden(`Only an operator may ${what}.`);
}

/** A team is seen only by its members (and the operator); to anyone else it does not exist. */
export function canSeeTeam(by: Caller, callerRole: Role | null): boolean {
  return isOperator(by) || callerRole !== null;
}

/**
 * Whether the caller may move a member from `from` to `to` (null = not a member). Owners and the
 * operator may do anything; admins manage admins and members but neither make nor unmake owners;
 * anyone may leave a team themselves.
 */
export function requireMembershipChange(by: Caller, callerRole: Role | null, change: { accountId: string | null; from: Role | null; to: Role | null }): void {
  if (isOperator(by) || callerRole === 'owner') return;
  if (change.to === null && by.account.id === change.accountId) return;
  if (callerRole !== 'admin') throw forbidden('Only team owners and admins may manage members.');
  if (change.from === 'owner' || change.to === 'owner') throw forbidden('Only team owners may add, change or remove owners.');
}

/** Owners and admins manage a team's members (what the members page offers). */
export function canManageMembers(callerRole: Role | null): boolean {
  return callerRole === 'owner' || callerRole === 'admin';
}

/** A team keeps at least one owner: someone must be able to manage it. */
export function requireOwnerRemains(ownersAfter: number): void {
  if (ownersAfter < 1) throw new AppError('invalid_request', 'A team must keep at least one owner; make someone else owner first.');
}

/** An account creates a team only with itself as owner; the operator for anyone. */
export function requireTeamCreation(by: Caller, ownerAccountId: string, withFeatures: boolean): void {
  if (isOperator(by)) return;
  if (by.account.id !== ownerAccountId) throw forbidden('You can only create a team you own.');
  if (withFeatures) throw forbidden('Only an operator may switch team features on.');
}
