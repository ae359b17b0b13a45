// Who may make, see and change which API keys, and which scopes a key may hold (decisions.md,
// "Credentials"; spec "Resources: API key"). Pure functions over facts the service looked up.
import { type Caller, type Feature, isOperator, type Role } from '../../../kernel/actor.ts';
import { AppError } from '../../../kernel/errors.ts';
import { legacyScopes, type Scope, scopeFitsKeyKind } from '../../../kernel/access.ts';
import { grantableScopes } from '../grantable.ts';

export interface TeamFacts {
  /** The creator's current role in the team, null when not a member. */
  role: Role | null;
  features: readonly Feature[];
}

/** An account makes keys for itself; the operator may make one for any account. */
export function requireCreator(by: Caller, creatorAccountId: string): void {
  if (!isOperator(by) && by.account.id !== creatorAccountId) throw new AppError('forbidden', 'You can only make keys for your own account.');
}

/** Only team owners and admins make team keys. */
export function requireTeamKeyMaker(by: Caller | 'self', team: TeamFacts): void {
  // To an account outside the team, the team does not exist.
  if (team.role === null && (by === 'self' || !isOperator(by))) throw new AppError('not_found', 'No such team.');
  if (team.role !== 'owner' && team.role !== 'admin') throw new AppError('forbidden', 'Only team owners and admins can make team keys.');
}

/**
 * Each scope must fit the key kind (team: public.*, team.*, people.*; personal: public.*, me.*),
 * be one a key of this kind may hold for the creator's role in this team now (grantable.ts), and,
 * when the key is made by another credential, be one that credential holds itself: a key never
 * makes a key with more power than its own (`ceiling`).
 */
export function requireGrantableScopes(scopes: readonly Scope[], team: TeamFacts | null, kind: 'scoped' | 'registration', ceiling?: readonly Scope[]): void {
  const keyKind = team ? 'team' : 'personal';
  const may = grantableScopes(kind, team, team?.role ?? null);
  for (const scope of scopes) {
    if (!scopeFitsKeyKind(scope, keyKind)) {
      throw new AppError(
        'invalid_request',
        `A ${keyKind} key cannot hold ${scope}; ${keyKind === 'team' ? 'make a personal key for me.* scopes' : 'make a team key for team.* and people.* scopes'}.`,
      );
    }
    // Registration keys never carry more than public.read public.ai (decisions.md).
    if (kind === 'registration' && !may.includes(scope)) {
      throw new AppError('invalid_request', `A registration key can hold only ${legacyScopes.join(' and ')}.`);
    }
    if (!may.includes(scope)) {
      throw new AppError('invalid_request', `The creator's role (${team?.role}) or the team's features cannot grant ${scope}.`);
    }
    if (ceiling && !ceiling.includes(scope)) {
      throw new AppError('forbidden', `A key cannot be given ${scope}: the credential making it does not hold that scope itself.`);
    }
  }
}

/**
 * Who may see, edit and revoke a key: its creator, the owners and admins of its team, and the
 * operator. Anyone else is told it does not exist.
 */
export function canManageKey(by: Caller, key: { accountId: string; teamId: string | null }, callerTeamRole: Role | null): boolean {
  if (isOperator(by)) return true;
  if (by.account.id === key.accountId) return true;
  return key.teamId !== null && (callerTeamRole === 'owner' || callerTeamRole === 'admin');
}

/** Who may make team keys (and give an app access for the team): its owners and admins. */
export function canMakeTeamKeys(role: Role | null): boolean {
  return role === 'owner' || role === 'admin';
}

/** Listing every key of a team: its owners and admins, and the operator. */
export function canListTeamKeys(by: Caller, callerTeamRole: Role | null): boolean {
  return isOperator(by) || callerTeamRole === 'owner' || callerTeamRole === 'admin';
}
