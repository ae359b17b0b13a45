// The OAuth 2.1 authorization server's HTTP surface: its metadata (RFC 8414), the token endpoint
// (RFC 6749 §3.2), dynamic client registration (RFC 7591 §3) and revocation (RFC 7009 §2), all
// answering errors in RFC 6749 §5.2's shape; and the authorization endpoint with its consent page
// (./authorize-pages.ts). The module (src/modules/credentials/oauth) does the work; this only translates.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { clientIp } from '../http/client-ip.ts';
import { useRenderer, renderOAuth } from '../http/render.ts';
import { useFormBodies } from '../web/form.ts';
import { authorizePages } from './authorize-pages.ts';
import { authorizationServerMetadata } from './metadata.ts';

/** Browser-based clients call these endpoints from other origins; no cookie is ever read here. */
function openToBrowsers(reply: FastifyReply): FastifyReply {
  return reply.header('Access-Control-Allow-Origin', '*');
}

/** RFC 6749 §5.1: token responses are never stored. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

export function oauthSurface(ctx: AppContext) {
  const oauth = ctx.services.oauth;
  return async function surface(app: FastifyInstance): Promise<void> {
    const metadata = authorizationServerMetadata(ctx.config);
    app.get('/.well-known/oauth-authorization-server', async (_request, reply) => {
      openToBrowsers(reply).header('Cache-Control', 'public, max-age=300');
      return metadata;
    });

    await app.register(
      async (scope) => {
        useFormBodies(scope);
        useRenderer(scope, ctx, renderOAuth);
        scope.addHook('onSend', async (_request, reply) => {
          openToBrowsers(reply);
        });
        // CORS preflight for browser-based clients (Fetch standard): the methods and headers they send.
        scope.options('/:endpoint', async (_request, reply) =>
          reply
            .header('Access-Control-Allow-Methods', 'POST')
            .header('Access-Control-Allow-Headers', 'Content-Type, Authorization')
            .header('Access-Control-Max-Age', '600')
            .status(204)
            .send(),
        );
        scope.post('/token', async (request, reply) => {
          const tokens = await oauth.token(formOf(request.body));
          return noStore(reply).send(tokens);
        });
        scope.post('/register', async (request, reply) => {
          const client = await oauth.clients.register(request.body, clientIp(request, ctx.config.trustProxy));
          return noStore(reply).status(201).send(client);
        });
        scope.post('/revoke', async (request, reply) => {
          await oauth.revoke(formOf(request.body));
          // RFC 7009 §2.2: 200 whether or not the token was known.
          return noStore(reply).status(200).send();
        });
      },
      { prefix: '/oauth' },
    );

    await app.register(authorizePages(ctx));
  };
}

/** The form's parameters; a request without a form body has none. */
function formOf(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
