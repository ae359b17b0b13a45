// Agent registration routes (spec "Agent registration routes", no prior credential): ask for a
// key for a person's email, poll for it, revoke it. Errors are `{ error, error_description }`
// as an OAuth client expects (RFC 6749 §5.2), with the device-flow polling codes of RFC 8628
// §3.5 on the claim. The person's side is the approval page (surfaces/web/agent-approval-pages.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { ClaimRefusal } from '../../modules/credentials/agent-registration/schema.ts';
import { clientIp } from '../http/client-ip.ts';
import { presentedCredential, unauthorized } from '../http/guard.ts';
import { type ErrorRenderer, useRenderer } from '../http/render.ts';

/** `error` is the RFC code where one applies, else the service's own code (decisions.md "Errors"). */
export const renderAgent: ErrorRenderer = (err) => ({
  error: err instanceof ClaimRefusal ? err.error : err.code,
  error_description: err.message,
  ...(err instanceof ClaimRefusal && err.interval !== null ? { interval: err.interval } : {}),
});

/** Answers that carry a credential (or a token to claim one) are never stored by any cache (RFC 6749 §5.1). */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

export function agentSurface(ctx: AppContext) {
  const { registration, verify } = ctx.services.credentials;
  return async function agent(app: FastifyInstance): Promise<void> {
    app.removeContentTypeParser('text/plain');
    useRenderer(app, ctx, renderAgent);

    app.post('/auth', async (request, reply) => {
      const started = await registration.start(request.body, clientIp(request, ctx.config.trustProxy));
      return noStore(reply).status(202).send(started);
    });

    app.post('/auth/claim', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('invalid_request', 'Send a JSON object: { "registration_id", "claim_token" }.');
      const claimed = await registration.claim({ registration_id: body.registration_id, claim_token: body.claim_token });
      return noStore(reply).status(200).send(claimed);
    });

    // The key revokes itself: the Bearer credential is the one revoked (spec "States and
    // transitions: Credential"). Only registration keys are revoked here; RFC 7009 §2.2.1 names
    // the refusal of other kinds unsupported_token_type.
    app.post('/auth/revoke', async (request, reply) => {
      const token = presentedCredential(request, false);
      if (!token) throw unauthorized(ctx, 'api', 'Send the registration key to revoke as Authorization: Bearer <key>.');
      const actor = await verify({ token, ip: () => clientIp(request, ctx.config.trustProxy), surface: 'api' });
      if (actor.credential.kind !== 'registration') {
        return noStore(reply).status(400).send({
          error: 'unsupported_token_type',
          error_description: 'Only keys issued by agent registration are revoked here; revoke other keys on the account page.',
        });
      }
      await ctx.performer.perform(actor, 'me.key.revoke-self', {}, { call: { surface: 'v1' }, count: false });
      return noStore(reply).status(200).send({ revoked: true });
    });
  };
}
