// The token endpoint (RFC 6749 §3.2, §4.1.3, §6; OAuth 2.1 §4.1.3, §4.3) and revocation (RFC
// 7009 §2). Public clients identify themselves with client_id (RFC 6749 §2.3, §3.2.1).
import type { ModuleDeps } from '../../../kernel/deps.ts';
import type { Scope } from '../../../kernel/access.ts';
import { hashCredential } from '../token.ts';
import { verifierMatches } from './authorize.ts';
import type { Clients } from './clients.ts';
import { oauthError } from './errors.ts';
import { ACCESS_TOKEN_PREFIX, type Grants, type Issued, REFRESH_TOKEN_PREFIX } from './grants.ts';
import * as repo from './repo.ts';
import { parseResource, parseScopeParam, single } from './schema.ts';
import type { ResourceName } from './tables.ts';

/** The successful token response (RFC 6749 §5.1), with org_id for a team grant (spec "OAuth details"). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  org_id?: string;
}

function present(issued: Issued): TokenResponse {
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    refresh_token: issued.refreshToken,
    scope: issued.scopes.join(' '),
    ...(issued.teamId ? { org_id: issued.teamId } : {}),
  };
}

const tooLong = (v: string | undefined) => v !== undefined && v.length > 512;

/** RFC 8707 §2.2: a token request may name the grant's resource, or one resource when the grant has none. */
function boundResource(asked: ResourceName | null, granted: ResourceName | null): ResourceName | null {
  if (asked === null) return granted;
  if (granted !== null && asked !== granted) throw oauthError('invalid_target', 'This grant is for another resource.');
  return asked;
}

export function createTokenEndpoint(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, clients: Clients, grants: Grants) {
  const { db, clock, config } = deps;
  const invalidGrant = (why: string) => oauthError('invalid_grant', why);

  async function redeemCode(body: Record<string, unknown>): Promise<TokenResponse> {
    const client = await clients.known(single(body, 'client_id'));
    const code = single(body, 'code');
    if (!code || tooLong(code)) throw oauthError('invalid_request', 'code is required.');
    const hash = hashCredential(code);
    const now = clock.now();
    const outcome = await db.transaction().execute(async (trx): Promise<{ issued: Issued } | { replayOf: string | null }> => {
      // The row stays locked until this transaction ends. A redemption marks the code used and
      // issues its grant under that lock, so any other redemption of the same code, at this
      // instance or another, waits here and then finds the code used and the grant recorded.
      const row = await repo.lockCode(trx, hash);
      if (!row) throw invalidGrant('The authorization code is not valid or has expired.');
      // RFC 6749 §4.1.2 / OAuth 2.1 §4.1.3: a code used more than once revokes what its first use
      // issued, whether this use comes long after or races the first one.
      if (row.used_at) return { replayOf: row.grant_id };
      if (row.expires_at.getTime() <= now.getTime()) throw invalidGrant('The authorization code is not valid or has expired.');
      // Bound to the client, the redirect URI and the PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.6).
      if (row.client_id !== client.id) throw invalidGrant('The authorization code was issued to another client.');
      if (single(body, 'redirect_uri') !== row.redirect_uri) throw invalidGrant('redirect_uri does not match the authorization request.');
      if (!verifierMatches(single(body, 'code_verifier'), row.code_challenge)) throw invalidGrant('code_verifier does not match the code_challenge.');
      const resource = boundResource(parseResource(body.resource, config.baseUrl), row.resource);
      const scopes = row.scopes as Scope[];
      const grant = {
        id: `grt_${crypto.randomUUID()}`,
        client_id: client.id,
        account_id: row.account_id,
        team_id: row.team_id,
        scopes,
        resource: row.resource,
      };
      const issued = await grants.issueGrant(trx, { grant, isNew: true, accessScopes: scopes, refreshScopes: scopes, resource });
      await repo.useCode(trx, hash, now, grant.id);
      return { issued };
    });
    if ('issued' in outcome) return present(outcome.issued);
    // The first use has committed (its lock was released): its grant is on the row. Revoked from
    // the database itself, so the change settles at every instance before this answer goes out.
    if (outcome.replayOf) await grants.revokeGrant(outcome.replayOf, 'its authorization code was used again');
    throw invalidGrant('The authorization code was already used; the tokens it gave have been revoked.');
  }

  async function refresh(body: Record<string, unknown>): Promise<TokenResponse> {
    const client = await clients.known(single(body, 'client_id'));
    const value = single(body, 'refresh_token');
    if (!value || tooLong(value)) throw oauthError('invalid_request', 'refresh_token is required.');
    const invalid = invalidGrant('The refresh token is not valid, has expired or was revoked.');
    if (!value.startsWith(REFRESH_TOKEN_PREFIX)) throw invalid;
    const hash = hashCredential(value);
    const row = await repo.findToken(db, hash);
    const now = clock.now();
    if (row?.kind !== 'refresh' || row.client_id !== client.id) throw invalid;
    if (row.grant_revoked_at || row.revoked_at || row.expires_at.getTime() <= now.getTime()) throw invalid;
    const reused = () => invalidGrant('This refresh token was already used; the whole grant has been revoked (RFC 9700 §4.14.2).');
    if (row.used_at) {
      // RFC 9700 §4.14.2: a rotated refresh token presented again means one of two parties is not
      // the client; the whole grant goes.
      await grants.revokeGrant(row.grant_id, 'a rotated refresh token was presented again');
      throw reused();
    }
    const held = row.scopes as Scope[];
    // RFC 6749 §6: the scope may narrow, never widen.
    const asked = body.scope === undefined ? held : parseScopeParam(body.scope);
    const wider = asked.filter((s) => !held.includes(s));
    if (wider.length) throw oauthError('invalid_scope', `This grant does not hold ${wider.join(' ')}; a refresh may only narrow the scope.`);
    const resource = boundResource(parseResource(body.resource, config.baseUrl), row.resource);
    const grant = {
      id: row.grant_id,
      client_id: row.client_id,
      account_id: row.account_id,
      team_id: row.team_id,
      scopes: row.grant_scopes,
      resource: row.resource,
    };
    const issued = await db.transaction().execute(async (trx) => {
      if (!(await repo.takeRefreshToken(trx, hash, now))) return null;
      return grants.issueGrant(trx, { grant, isNew: false, accessScopes: asked, refreshScopes: held, resource });
    });
    if (!issued) {
      await grants.revokeGrant(row.grant_id, 'a rotated refresh token was presented again');
      throw reused();
    }
    return present(issued);
  }

  return {
    /** POST /oauth/token: the two grant types this server supports. */
    async token(body: Record<string, unknown>): Promise<TokenResponse> {
      const type = single(body, 'grant_type');
      if (type === 'authorization_code') return redeemCode(body);
      if (type === 'refresh_token') return refresh(body);
      if (type === undefined) throw oauthError('invalid_request', 'grant_type is required.');
      throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    },

    /**
     * RFC 7009 §2.1: revokes an access token (that token) or a refresh token (its whole grant,
     * with every access token it issued). An unknown token, or one of another client, changes
     * nothing and is answered the same way (§2.2).
     */
    async revoke(body: Record<string, unknown>): Promise<void> {
      const value = single(body, 'token');
      if (!value) throw oauthError('invalid_request', 'token is required.');
      const clientId = single(body, 'client_id');
      if (tooLong(value) || !(value.startsWith(ACCESS_TOKEN_PREFIX) || value.startsWith(REFRESH_TOKEN_PREFIX))) return;
      const hash = hashCredential(value);
      const row = await repo.findToken(db, hash);
      if (!row || (clientId !== undefined && row.client_id !== clientId)) return;
      if (row.kind === 'refresh') {
        await grants.revokeGrant(row.grant_id, 'revoked by the client');
        return;
      }
      // The grant and its refresh token stay: only this access token ends.
      await grants.revokeAccessToken(hash);
    },
  };
}

export type TokenEndpoint = ReturnType<typeof createTokenEndpoint>;
