// OAuth protected resource metadata (RFC 9728) for each protected surface. A 401 from a surface
// points here through WWW-Authenticate.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { allScopes } from '../../kernel/operations.ts';

export function protectedResourceMetadata(ctx: AppContext, surface: 'api' | 'mcp' | 'a2a' | null) {
  const base = ctx.config.baseUrl;
  return {
    // RFC 9728 §2: `resource` is the exact URL of the protected surface.
    resource: surface ? `${base}/${surface}` : base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: allScopes,
    resource_name: 'Council Tracker',
    resource_documentation: `${base}/llms.txt`,
  };
}

export function wellKnownSurface(ctx: AppContext) {
  return async function wellKnown(app: FastifyInstance): Promise<void> {
    const send = (surface: 'api' | 'mcp' | 'a2a' | null) => async () => protectedResourceMetadata(ctx, surface);
    app.get('/.well-known/oauth-protected-resource', send(null));
    app.get('/.well-known/oauth-protected-resource/api', send('api'));
    app.get('/.well-known/oauth-protected-resource/mcp', send('mcp'));
    app.get('/.well-known/oauth-protected-resource/a2a', send('a2a'));
    app.get('/health', async () => ({ status: 'ok' }));
  };
}
