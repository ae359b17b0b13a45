// The authorization endpoint's logic (RFC 6749 §4.1.1–§4.1.2, OAuth 2.1 §4.1): the request is
// checked, the person chooses Personal or a team, and a code bound to the client, the redirect
// URI, the PKCE challenge, the grant's owner, scopes and resource goes back in the redirect with
// `state` and `iss` (RFC 9207 §2). A request that cannot be served is an error for the person,
// never a redirect (RFC 9700 §4.11.2).
import { createHash } from 'node:crypto';
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import type { Scope } from '../../../kernel/access.ts';
import { hashCredential, randomBase62 } from '../token.ts';
import type { Client, Clients } from './clients.ts';
import { oauthError } from './errors.ts';
import * as repo from './repo.ts';
import { isPkceValue, parseResource, parseScopeParam, single } from './schema.ts';
import type { ResourceName } from './tables.ts';

/** Codes are used within seconds by a working client; a minute is plenty (RFC 6749 §4.1.2: "short"). */
const CODE_TTL_SECONDS = 60;

export interface AuthorizationRequest {
  client: Client;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scopes: Scope[];
  resource: ResourceName | null;
  /** The request's parameters as received: the consent form sends them back. */
  params: Record<string, string>;
}

/** Personal, or one team; with the subset of the requested scopes that owner's grant would hold. */
export interface OwnerChoice {
  value: string;
  label: string;
  teamId: string | null;
  scopes: Scope[];
}

const KNOWN_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'];

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function createAuthorize(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, clients: Clients) {
  const { db, clock, config } = deps;
  const issuer = config.baseUrl;

  /** The client's redirect with the response parameters, `state` echoed and `iss` (RFC 9207 §2). */
  function redirectTo(redirectUri: string, state: string | null, values: Record<string, string>): string {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(values)) url.searchParams.set(k, v);
    if (state !== null) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    return url.toString();
  }

  return {
    redirectTo,

    /**
     * Checks an authorization request; anything wrong is thrown with its RFC 6749 §4.1.2.1 code and
     * shown on the service's own page, never redirected. RFC 9700 §4.11.2: before the person has
     * signed in and acted, a redirect to a URI any self-registered client may name would make this
     * server an open redirector; the client hears back only after the person approves or denies.
     */
    async check(query: Record<string, unknown>): Promise<AuthorizationRequest> {
      const params: Record<string, string> = {};
      for (const name of KNOWN_PARAMS) {
        const v = single(query, name);
        if (v !== undefined) params[name] = v;
      }
      const client = await clients.resolve(params.client_id);
      // OAuth 2.1 §4.1.1: exact string matching; no case, trailing-slash or query variants.
      const redirectUri = params.redirect_uri;
      if (redirectUri === undefined) throw oauthError('invalid_request', 'redirect_uri is required.');
      if (!client.redirectUris.includes(redirectUri))
        throw oauthError('invalid_request', 'This redirect_uri is not one the client registered (it must match exactly).');
      if (params.response_type !== 'code') throw oauthError('unsupported_response_type', 'Only response_type=code is supported.');
      // OAuth 2.1 §4.1.1 / RFC 7636 §4.3: PKCE is required, and only S256 (plain is refused).
      if (params.code_challenge === undefined) throw oauthError('invalid_request', 'code_challenge is required (PKCE with S256).');
      if (params.code_challenge_method !== 'S256') throw oauthError('invalid_request', 'code_challenge_method must be S256; plain is not accepted.');
      if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge))
        throw oauthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
      const scopes = parseScopeParam(params.scope);
      const resource = parseResource(query.resource, config.baseUrl);
      return { client, redirectUri, state: params.state ?? null, codeChallenge: params.code_challenge, scopes, resource, params };
    },

    /** The person said no (RFC 6749 §4.1.2.1 access_denied). */
    deny(request: AuthorizationRequest): string {
      return redirectTo(request.redirectUri, request.state, { error: 'access_denied', error_description: 'The person declined to connect this app.' });
    },

    /** The person approved for one owner: a single-use code, bound to everything it may be redeemed with. */
    async approve(request: AuthorizationRequest, accountId: string, owner: OwnerChoice): Promise<string> {
      if (owner.scopes.length === 0) throw new AppError('invalid_request', 'Nothing this app asks for can be granted for that choice; choose another.');
      const code = randomBase62(43);
      const now = clock.now().getTime();
      // Codes an hour past their expiry can no longer be told from never issued; they go.
      await repo.deleteExpiredCodes(db, new Date(now - 3600_000));
      const stored = repo.insertCode(db, {
        hash: hashCredential(code),
        client_id: request.client.id,
        account_id: accountId,
        team_id: owner.teamId,
        scopes: owner.scopes,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        resource: request.resource,
        expires_at: new Date(now + CODE_TTL_SECONDS * 1000),
      });
      await stored.catch((err: unknown) => {
        // The client was cleaned up (never used for a day) between the check and this approval.
        if ((err as { code?: unknown }).code === FOREIGN_KEY_VIOLATION)
          throw new AppError('invalid_request', 'This app is no longer registered with the service; start again from the app.');
        throw err;
      });
      return redirectTo(request.redirectUri, request.state, { code });
    },
  };
}

/** PostgreSQL's SQLSTATE for a row naming one that no longer exists (Appendix A, class 23). */
const FOREIGN_KEY_VIOLATION = '23503';

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge; the verifier itself has the §4.1 form. */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  return isPkceValue(verifier) && s256(verifier) === challenge;
}

export type Authorize = ReturnType<typeof createAuthorize>;
