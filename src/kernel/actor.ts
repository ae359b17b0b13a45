// Who is calling, built from the database on every request (modules/credentials/verify.ts).
import type { Scope } from './operations.ts';

export type Role = 'owner' | 'admin' | 'member';
export type Feature = 'team_data' | 'advocacy' | 'analytics' | 'people' | 'offices';
export const features: readonly Feature[] = ['team_data', 'advocacy', 'analytics', 'people', 'offices'];
export const roles: readonly Role[] = ['owner', 'admin', 'member'];

export type CredentialType = 'api_key' | 'oauth' | 'session';

export interface Actor {
  account: { id: string; email: string; name: string | null };
  /** The team the credential acts for, with the creator's current role and the team's features. */
  team: { id: string; name: string; role: Role; features: Feature[] } | null;
  credential: {
    id: string;
    type: CredentialType;
    name: string;
    kind: 'scoped' | 'registration' | 'legacy' | 'oauth' | 'session';
    expiresAt: Date | null;
    /** Scopes granted when the credential was made, before live power cut them (GET /me shows both). */
    grantedScopes?: Scope[];
  };
  /** Scopes the credential holds right now (already cut down to what the account may grant). */
  scopes: Scope[];
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
