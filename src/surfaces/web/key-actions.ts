// The form POSTs behind a key page (create, rename, change expiry, change allowed IPs, revoke),
// mounted under the account page and under a team's Settings → API keys. Who may do what is
// decided by the credentials service; a refused or malformed form brings the page back with the
// message and the error's status, and nothing changes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { asAccount } from '../../modules/accounts/index.ts';
import type { KeyContext } from '../../modules/credentials/index.ts';
import { field, fields, listField } from './form.ts';
import { requireCsrf, type SignedIn, signedIn } from './security.ts';

export interface KeyPageState {
  error?: string;
  created?: { name: string; key: string };
  previous?: { name: string; owner: string; scopes: string[]; expires: string; allowedIps: string };
}

export interface KeyPage {
  /** Fastify path of the page, e.g. '/account/keys' or '/dashboard/:teamId/settings/api-keys'. */
  base: string;
  render(request: FastifyRequest, reply: FastifyReply, session: SignedIn, state: KeyPageState, status: number): Promise<FastifyReply>;
  /** The page to return to after a change. */
  back(request: FastifyRequest): string;
  /**
   * Where the page acts: a team (it makes that team's keys and changes only them) or the person's
   * own keys (the account page: personal keys are made there).
   */
  context(request: FastifyRequest, session: SignedIn): KeyContext;
}

/** An empty date field means "never"; a date means midnight UTC at its start. */
function expiryField(body: unknown): string | null {
  const v = field(body, 'expires').trim();
  return v === '' ? null : v;
}

function isFormError(err: unknown): err is AppError {
  return err instanceof AppError && err.status < 500 && err.code !== 'not_found';
}

export function registerKeyActions(app: FastifyInstance, ctx: AppContext, p: KeyPage): void {
  const keys = ctx.services.credentials.keys;
  const csrf = requireCsrf(ctx);

  app.post(p.base, { preHandler: csrf }, async (request, reply) => {
    const session = signedIn(request, reply)!;
    const body = request.body;
    const previous = {
      name: field(body, 'name'),
      owner: field(body, 'owner') || 'personal',
      scopes: fields(body, 'scopes'),
      expires: field(body, 'expires'),
      allowedIps: field(body, 'allowed_ips'),
    };
    try {
      const where = p.context(request, session);
      const teamId = 'teamId' in where ? where.teamId : null;
      if (previous.owner !== (teamId ?? 'personal')) {
        throw new AppError(
          'invalid_request',
          teamId
            ? 'Keys made here belong to this team; make personal keys on your account page.'
            : "Keys made on the account page are personal; make team keys under the team's Settings → API keys.",
        );
      }
      const created = await keys.create({
        accountId: session.actor.account.id,
        by: asAccount(session.actor.account.id),
        name: previous.name,
        scopes: previous.scopes,
        teamId,
        expiresAt: expiryField(body),
        allowedIps: listField(body, 'allowed_ips'),
      });
      return p.render(request, reply, session, { created: { name: created.apiKey.name, key: created.key } }, 201);
    } catch (err) {
      if (!isFormError(err)) throw err;
      return p.render(request, reply, session, { error: err.message, previous }, err.status);
    }
  });

  const change = (action: string, apply: (by: ReturnType<typeof asAccount>, key: { id: string; within: KeyContext }, body: unknown) => Promise<unknown>) => {
    app.post(`${p.base}/:keyId/${action}`, { preHandler: csrf }, async (request, reply) => {
      const session = signedIn(request, reply)!;
      const { keyId } = request.params as { keyId: string };
      try {
        await apply(asAccount(session.actor.account.id), { id: keyId, within: p.context(request, session) }, request.body);
      } catch (err) {
        if (!isFormError(err)) throw err;
        return p.render(request, reply, session, { error: err.message }, err.status);
      }
      return reply.redirect(p.back(request), 303);
    });
  };

  change('rename', (by, key, body) => keys.rename(by, { ...key, name: field(body, 'name') }));
  change('expiry', (by, key, body) => keys.setExpiry(by, { ...key, expiresAt: expiryField(body) }));
  change('allowed-ips', (by, key, body) => keys.setAllowedIps(by, { ...key, allowedIps: listField(body, 'allowed_ips') }));
  change('revoke', (by, key) => keys.revoke(by, key));

  // Disconnecting a connected app (an OAuth grant) listed on the same page.
  app.post(`${p.base}/apps/:grantId/disconnect`, { preHandler: csrf }, async (request, reply) => {
    const session = signedIn(request, reply)!;
    const { grantId } = request.params as { grantId: string };
    try {
      await ctx.services.oauth.disconnect(asAccount(session.actor.account.id), grantId, p.context(request, session));
    } catch (err) {
      if (!isFormError(err)) throw err;
      return p.render(request, reply, session, { error: err.message }, err.status);
    }
    return reply.redirect(p.back(request), 303);
  });
}
