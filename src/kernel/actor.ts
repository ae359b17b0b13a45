// Who is calling, built from the database on every request (modules/credentials/verify.ts).
import { allScopes, type Scope } from './access.ts';

export type Role = 'owner' | 'admin' | 'member';
export type Feature = 'team_data' | 'advocacy' | 'analytics' | 'people' | 'offices';
export const features: readonly Feature[] = ['team_data', 'advocacy', 'analytics', 'people', 'offices'];
export const roles: readonly Role[] = ['owner', 'admin', 'member'];

export type CredentialType = 'api_key' | 'oauth' | 'session' | 'visitor' | 'operator';

export interface Actor {
  account: { id: string; email: string; name: string | null };
  /** The team the credential acts for, with the creator's current role and the team's features. */
  team: { id: string; name: string; role: Role; features: Feature[] } | null;
  credential: {
    id: string;
    type: CredentialType;
    name: string;
    kind: 'scoped' | 'registration' | 'legacy' | 'oauth' | 'session' | 'visitor' | 'operator';
    expiresAt: Date | null;
    /** Scopes granted when the credential was made, before live power cut them (GET /me shows both). */
    grantedScopes?: Scope[];
  };
  /** Scopes the credential holds right now (already cut down to what the account may grant). */
  scopes: Scope[];
  /**
   * Team credentials: scopes given to the credential (a session: that it would carry) that the
   * person's current role or the team's features withhold now. Asking for one is 403 forbidden,
   * not scope_missing (modules/credentials/grantable.ts decides which).
   */
  withheld?: Scope[];
  /** Whose counters this request spends: the team's for team credentials, else the account's. */
  limitsOwner: { type: 'account' | 'team'; id: string };
  /** The limits owner's effective limits: the operator's override, else the default. */
  limits: Limits;
}

export interface Limits {
  requestsPerDay: number;
  requestsPerMinute: number;
  aiAnswersPerDay: number;
}

/**
 * Someone reading the public website without a credential (spec: web pages, their Markdown
 * variants, the agent guide and the feeds stay open). Holds `public.read` only, belongs to no
 * account or team, and is never counted: pages perform with `count: false`, since the limits are
 * those of API credentials.
 */
export const visitor: Actor = Object.freeze({
  account: Object.freeze({ id: '00000000-0000-0000-0000-000000000000', email: '', name: null }),
  team: null,
  credential: Object.freeze({ id: 'visitor', type: 'visitor' as const, name: 'visitor', kind: 'visitor' as const, expiresAt: null }),
  scopes: Object.freeze(['public.read']) as unknown as Scope[],
  limitsOwner: Object.freeze({ type: 'account' as const, id: '00000000-0000-0000-0000-000000000000' }),
  limits: Object.freeze({ requestsPerDay: 0, requestsPerMinute: 0, aiAnswersPerDay: 0 }),
});

/**
 * The operator: the CLI and the admin socket, run on the machine that serves the service
 * (decisions.md "operator CLI"). Full power over accounts, teams, members and keys — every policy
 * says so by asking `isOperator`, rather than services having a path that skips the policy. It
 * belongs to no account or team and is never counted (nothing it does passes the limits).
 */
export const operator: Actor = Object.freeze({
  account: Object.freeze({ id: 'operator', email: '', name: 'operator' }),
  team: null,
  credential: Object.freeze({ id: 'operator', type: 'operator' as const, name: 'operator', kind: 'operator' as const, expiresAt: null }),
  scopes: Object.freeze([...allScopes]) as unknown as Scope[],
  limitsOwner: Object.freeze({ type: 'account' as const, id: 'operator' }),
  limits: Object.freeze({ requestsPerDay: 0, requestsPerMinute: 0, aiAnswersPerDay: 0 }),
});

/** Who is asking, as far as a policy needs to know: any Actor, the operator included. */
export type Caller = Pick<Actor, 'account' | 'credential'>;

export function isOperator(by: Caller): boolean {
  return by.credential.type === 'operator';
}
