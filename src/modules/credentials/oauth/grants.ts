// A grant: one person's consent to one client, personal or for one team, and the tokens issued
// under it. Issuing and revoking each happen in exactly one function here (issueGrant,
// revokeGrant): a new grant from an authorization code and every refresh rotation go through
// issueGrant; disconnecting, revocation (RFC 7009), a replayed code, a reused refresh token and a
// member leaving the team go through revokeGrant. Credential events hook in at these two places.
import type { ModuleDeps } from '../../../kernel/deps.ts';
import type { Scope } from '../../../kernel/access.ts';
import { hashCredential, randomBase62 } from '../token.ts';
import type { CredentialEventType, SecurityLog } from '../../security-log/index.ts';
import * as repo from './repo.ts';
import type { ResourceName } from './tables.ts';

export const ACCESS_TOKEN_PREFIX = 'cto_';
export const REFRESH_TOKEN_PREFIX = 'ctr_';

export interface Issued {
  grantId: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** The access token's scopes. */
  scopes: Scope[];
  teamId: string | null;
}

export interface GrantToIssue {
  /** A new grant (from an authorization code), or one being refreshed. */
  grant: Omit<repo.GrantRow, 'revoked_at'>;
  isNew: boolean;
  /** What the access token carries: the grant's scopes, or fewer (a narrowing refresh). */
  accessScopes: Scope[];
  /** The refresh token's scopes: the grant's (RFC 6749 §6: a new refresh token keeps the old one's scope). */
  refreshScopes: Scope[];
  /** The surface the access token is bound to (RFC 8707). */
  resource: ResourceName | null;
}

export function createGrants(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>,
  settlePower: () => Promise<void>,
  securityLog: Pick<SecurityLog, 'credential'>,
) {
  const { db, clock, config } = deps;

  /** The credential event of a grant (modules/security-log), committed with the caller's transaction. */
  async function emit(
    q: repo.Q,
    type: CredentialEventType,
    grantId: string,
    what: { kind: string; prefix?: string; scopes?: readonly string[]; reason?: string },
  ) {
    const grant = await repo.grantForEvent(q, grantId);
    if (!grant) return;
    await securityLog.credential(
      {
        type,
        accountId: grant.account_id,
        credential: {
          id: grant.id,
          type: 'oauth',
          kind: what.kind,
          name: grant.client_name,
          prefix: what.prefix ?? null,
          scopes: what.scopes ?? grant.scopes,
          teamId: grant.team_id,
        },
        via: 'oauth',
        reason: what.reason ?? null,
      },
      q === db ? {} : { within: q },
    );
  }

  return {
    /** Issues an access token and a refresh token under a grant, inserting the grant when it is new. Runs inside the caller's transaction. */
    async issueGrant(q: repo.Q, issue: GrantToIssue): Promise<Issued> {
      if (issue.isNew) await repo.insertGrant(q, issue.grant);
      const now = clock.now().getTime();
      const accessToken = `${ACCESS_TOKEN_PREFIX}${randomBase62(32)}`;
      const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomBase62(32)}`;
      await repo.insertTokens(q, [
        {
          hash: hashCredential(accessToken),
          grant_id: issue.grant.id,
          kind: 'access',
          scopes: issue.accessScopes,
          resource: issue.resource,
          expires_at: new Date(now + config.ttl.accessToken * 1000),
        },
        {
          hash: hashCredential(refreshToken),
          grant_id: issue.grant.id,
          kind: 'refresh',
          scopes: issue.refreshScopes,
          resource: null,
          expires_at: new Date(now + config.ttl.refreshToken * 1000),
        },
      ]);
      // A new grant, or a refresh rotating its tokens: both issue a credential.
      await emit(q, 'credential.issued', issue.grant.id, {
        kind: issue.isNew ? 'grant' : 'refresh',
        prefix: accessToken.slice(0, 8),
        scopes: issue.accessScopes,
      });
      return { grantId: issue.grant.id, accessToken, refreshToken, expiresIn: config.ttl.accessToken, scopes: issue.accessScopes, teamId: issue.grant.team_id };
    },

    /**
     * Revokes a grant and every token it issued. Given the database itself, it settles the change
     * (kernel/coherence.ts) so the tokens fail on their next request at every instance; given a
     * transaction, its committer settles.
     */
    async revokeGrant(grantId: string, reason: string, q: repo.Q = db): Promise<boolean> {
      const revoked = await repo.revokeGrant(q, grantId, clock.now(), reason);
      if (revoked) await emit(q, 'credential.revoked', grantId, { kind: 'grant', reason });
      if (q === db) await settlePower();
      return revoked;
    },

    /** One access token ends (RFC 7009 §2.1); its grant and refresh token stay. Settled like a grant. */
    async revokeAccessToken(hash: Buffer): Promise<void> {
      const grantId = await repo.revokeToken(db, hash, clock.now());
      await settlePower();
      if (grantId) await emit(db, 'credential.revoked', grantId, { kind: 'access token', reason: 'revoked at the revocation endpoint' });
    },
  };
}

export type Grants = ReturnType<typeof createGrants>;
