// The 401 every protected surface sends: RFC 6750 §3 Bearer challenge pointing at the protected
// resource metadata (RFC 9728 §5.1). Built here once so verify and the HTTP guard agree.
import { AppError } from '../../kernel/errors.ts';

export type Surface = 'api' | 'mcp' | 'a2a';

export function resourceMetadataUrl(baseUrl: string, surface: Surface): string {
  return `${baseUrl}/.well-known/oauth-protected-resource/${surface}`;
}

export function unauthorizedError(baseUrl: string, surface: Surface, message: string): AppError {
  return new AppError('unauthorized', message, {
    'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl(baseUrl, surface)}"`,
  });
}
