// The authorization endpoint (RFC 6749 §4.1.1, OAuth 2.1 §4.1.1): GET shows the consent page (or
// sends a signed-out person to sign in by email link, who comes back here afterwards); POST is the
// person's decision, which redirects to the client with a code or access_denied, `state` echoed
// and `iss` added (RFC 9207). Every error of the request itself — an unknown client or
// unregistered redirect URI (RFC 6749 §4.1.2.1) and equally a bad response_type, PKCE, scope or
// resource — is shown on this service's page, signed in or not, and never redirected: only the
// person's own Approve or Deny sends the browser to the client (RFC 9700 §4.11.2, open redirectors).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { AuthorizationRequest } from '../../modules/credentials/oauth/index.ts';
import { usePageErrors } from '../web/errors.ts';
import { field, useFormBodies } from '../web/form.ts';
import { page, sendPage } from '../web/layout.ts';
import { setReturnTo } from '../web/return-to.ts';
import { loadSession, requireCsrf, type SignedIn } from '../web/security.ts';
import { viewerOf } from '../web/signin-pages.ts';
import { consentBody } from './consent-view.ts';

/** The consent form posts here and is then redirected to the client: form-action must allow the client's redirect (CSP 3 §6.3.1). */
function consentCsp(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${target}; frame-ancestors 'none'; base-uri 'none'`;
}

/** Errors of the request itself are shown to the person with status 400 and the OAuth code, never redirected. */
function shown(err: unknown): never {
  if (err instanceof AppError && err.status < 500) {
    throw new AppError('invalid_request', `${err.message} (OAuth error ${err.protocolCode ?? 'invalid_request'}; nothing was shared with the app.)`);
  }
  throw err;
}

export function authorizePages(ctx: AppContext) {
  const oauth = ctx.services.oauth;

  async function check(params: Record<string, unknown>) {
    return oauth.authorize.check(params).catch(shown);
  }

  async function consent(request: FastifyRequest, reply: FastifyReply, session: SignedIn, req: AuthorizationRequest, status: number, error: string | null) {
    const owners = await oauth.owners(session.actor.account.id, req.scopes);
    const body = consentBody(req, owners, session.csrfToken, error);
    return sendPage(reply, status, page(`Connect ${req.client.name}?`, viewerOf(request), body), consentCsp(req.redirectUri));
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    useFormBodies(app);
    app.addHook('onRequest', loadSession(ctx));
    usePageErrors(app);

    app.get('/oauth/authorize', async (request, reply) => {
      const checked = await check(request.query as Record<string, unknown>);
      const session = request.signedIn;
      if (!session) {
        // Sign in by email link first; confirming the link comes back to this very request.
        setReturnTo(ctx, reply, request.url);
        return reply.redirect('/signin', 303);
      }
      return consent(request, reply, session, checked, 200, null);
    });

    app.post('/oauth/authorize', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const session = request.signedIn;
      if (!session) throw new AppError('forbidden', 'You are signed out. Sign in again and repeat what you were doing.');
      const checked = await check(request.body as Record<string, unknown>);
      if (field(request.body, 'decision') === 'deny') return reply.redirect(oauth.authorize.deny(checked), 303);
      if (field(request.body, 'decision') !== 'approve') return consent(request, reply, session, checked, 400, 'Choose Approve or Deny.');
      try {
        return reply.redirect(await oauth.approve(checked, session.actor.account.id, field(request.body, 'owner')), 303);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return consent(request, reply, session, checked, err.status, err.message);
      }
    });
  };
}
