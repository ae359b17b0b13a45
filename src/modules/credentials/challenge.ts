// The challenges a protected surface sends: RFC 6750 §3 Bearer challenges pointing at the
// protected resource metadata (RFC 9728 §5.1) and naming the scope a client should ask for.
// Built here once so verify, the HTTP guard and every surface (v1, v2, MCP, A2A) agree.
import { AppError } from '../../kernel/errors.ts';
import { legacyScopes } from '../../kernel/access.ts';

export type Surface = 'api' | 'mcp' | 'a2a';

/** What a client without a credential should ask for: what registration and a scope-less OAuth grant give. */
export const DEFAULT_SCOPE = legacyScopes.join(' ');

export function resourceMetadataUrl(baseUrl: string, surface: Surface): string {
  return `${baseUrl}/.well-known/oauth-protected-resource/${surface}`;
}

/** A quoted-string of RFC 9110 §5.6.4: printable ASCII only, no quotes or backslashes inside. */
function quoted(value: string): string {
  return `"${value.replace(/[^ -~]|["\\]/g, ' ')}"`;
}

/**
 * 401 (RFC 6750 §3.1). `presented`: a token was sent and is not valid (unknown, expired, revoked),
 * so the challenge says `error="invalid_token"`; with no token it carries no error code.
 */
export function unauthorizedError(baseUrl: string, surface: Surface, message: string, presented = false): AppError {
  const params = [`resource_metadata=${quoted(resourceMetadataUrl(baseUrl, surface))}`, `scope=${quoted(DEFAULT_SCOPE)}`];
  if (presented) params.push('error="invalid_token"', `error_description=${quoted(message)}`);
  return new AppError('unauthorized', message, { 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
}

/** 403 for a valid token without the scope an operation needs (RFC 6750 §3.1 insufficient_scope). */
export function insufficientScopeError(baseUrl: string, surface: Surface, scopes: readonly string[], message: string): AppError {
  const params = [
    `resource_metadata=${quoted(resourceMetadataUrl(baseUrl, surface))}`,
    `scope=${quoted(scopes.join(' '))}`,
    'error="insufficient_scope"',
    `error_description=${quoted(message)}`,
  ];
  return new AppError('scope_missing', message, { 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
}
