// The OAuth 2.1 authorization server: what the surfaces, the credential check and the services
// wiring may use. Tables: oauth_clients, oauth_grants, oauth_codes, oauth_tokens (migrations 0090, 0140).
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { safeFetch } from '../../../kernel/safe-fetch.ts';
import { createOAuthService, type OAuth, type OAuthDeps } from './service.ts';

export function createOAuth(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>,
  others: Omit<OAuthDeps, 'fetchDocument'> & { fetchDocument?: OAuthDeps['fetchDocument'] },
): OAuth {
  return createOAuthService(deps, { ...others, fetchDocument: others.fetchDocument ?? safeFetch });
}

export type { OAuth };
export type { AuthorizationRequest, OwnerChoice } from './authorize.ts';
export { s256 } from './authorize.ts';
export type { Client } from './clients.ts';
export { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from './grants.ts';
export type { DocumentFetch } from './metadata-document.ts';
export { type AccessTokenRow, findAccessTokenForVerify, touchGrant } from './repo.ts';
export type { ConnectedApp } from './service.ts';
export type { ResourceName } from './tables.ts';
