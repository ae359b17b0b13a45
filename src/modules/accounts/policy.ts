// Who may do what to accounts and teams (house style, gate 3). Pure functions: the service looks
// up the facts (the caller's current role) and asks here before any change.
import type { Role } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';

/**
 * Who is asking for a change. The operator (the CLI, on the machine that runs the service) has
 * full power over accounts and teams; it is named explicitly so every decision says so, rather
 * than services having a path that skips the policy.
 */
export type Acting = { readonly type: 'operator' } | { readonly type: 'account'; readonly accountId: string };

export const operator: Acting = Object.freeze({ type: 'operator' });

/** A person acting for themselves (a signed-in session, an API call). */
export type AccountActing = Extract<Acting, { type: 'account' }>;

export function asAccount(accountId: string): AccountActing {
  return Object.freeze({ type: 'account', accountId });
}

const forbidden = (message: string) => new AppError('forbidden', message);

/** Features and limits are switched by the operator only (decisions.md, "Accounts, teams"). */
export function requireOperator(by: Acting, what: string): void {
  if (by.type !== 'operator') throw forbidden(`Only an operator may ${what}.`);
}

/** A team is seen only by its members (and the operator); to anyone else it does not exist. */
export function canSeeTeam(by: Acting, callerRole: Role | null): boolean {
  return by.type === 'operator' || callerRole !== null;
}

/**
 * Whether the caller may move a member from `from` to `to` (null = not a member). Owners and the
 * operator may do anything; admins manage admins and members but neither make nor unmake owners;
 * anyone may leave a team themselves.
 */
export function requireMembershipChange(by: Acting, callerRole: Role | null, change: { accountId: string | null; from: Role | null; to: Role | null }): void {
  if (by.type === 'operator' || callerRole === 'owner') return;
  if (change.to === null && by.accountId === change.accountId) return;
  if (callerRole !== 'admin') throw forbidden('Only team owners and admins may manage members.');
  if (change.from === 'owner' || change.to === 'owner') throw forbidden('Only team owners may add, change or remove owners.');
}

/** Owners and admins manage a team's members (and its keys). */
export function canManageMembers(callerRole: Role | null): boolean {
  return callerRole === 'owner' || callerRole === 'admin';
}

/** A team keeps at least one owner: someone must be able to manage it. */
export function requireOwnerRemains(ownersAfter: number): void {
  if (ownersAfter < 1) throw new AppError('invalid_request', 'A team must keep at least one owner; make someone else owner first.');
}

/** An account creates a team only with itself as owner; the operator for anyone. */
export function requireTeamCreation(by: Acting, ownerAccountId: string, withFeatures: boolean): void {
  if (by.type === 'operator') return;
  if (by.accountId !== ownerAccountId) throw forbidden('You can only create a team you own.');
  if (withFeatures) throw forbidden('Only an operator may switch team features on.');
}
