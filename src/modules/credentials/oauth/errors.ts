// OAuth's own error vocabulary, thrown as the one AppError with the RFC code beside the service's
// (rendered by surfaces/http/render.ts renderOAuth, or put into the redirect of an authorization
// response, RFC 6749 §4.1.2.1).
import { AppError } from '../../../kernel/errors.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  // RFC 8707 §2: a resource the server does not know or will not issue for.
  | 'invalid_target'
  // RFC 7591 §3.2.2.
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/** 400 with the RFC code; invalid_client is 401 (RFC 6749 §5.2). */
export function oauthError(code: OAuthErrorCode, message: string): AppError {
  if (code === 'invalid_client') return new AppError('unauthorized', message, {}, code);
  return new AppError('invalid_request', message, {}, code);
}

export function oauthCodeOf(err: AppError): string {
  return err.protocolCode ?? (err.status === 401 ? 'invalid_client' : err.status >= 500 ? 'server_error' : 'invalid_request');
}
