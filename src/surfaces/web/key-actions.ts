// The form POSTs behind a key page (create, rename, change expiry, change allowed IPs, revoke),
// mounted under the account page and under a team's Settings → API keys. Who may do what is
// decided by the credentials service; a refused or malformed form brings the page back with the
// message and the error's status, and nothing changes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { asAccount } from '../../modules/accounts/index.ts';
import { field, fields, listField } from './form.ts';
import { requireCsrf, signedIn, type WebSession } from './security.ts';

export interface KeyPageState {
  error?: string;
  created?: { name: string; key: string };
  previous?: { name: string; owner: string; scopes: string[]; expires: string; allowedIps: string };
}

export interface KeyPage {
  /** Fastify path of the page, e.g. '/account/keys' or '/dashboard/:teamId/settings/api-keys'. */
  base: string;
  render(request: FastifyRequest, reply: FastifyReply, session: WebSession, state: KeyPageState, status: number): Promise<FastifyReply>;
  /** The page to return to after a change. */
  back(request: FastifyRequest): string;
  /** The team a create form's owner field names, or null for a personal key. */
  teamFor(request: FastifyRequest, owner: string): string | null;
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
      const teamId = p.teamFor(request, previous.owner);
      const created = await keys.create({
        accountId: session.info.account.id,
        by: asAccount(session.info.account.id),
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

  const change = (action: string, apply: (by: ReturnType<typeof asAccount>, id: string, body: unknown) => Promise<unknown>) => {
    app.post(`${p.base}/:keyId/${action}`, { preHandler: csrf }, async (request, reply) => {
      const session = signedIn(request, reply)!;
      const { keyId } = request.params as { keyId: string };
      try {
        await apply(asAccount(session.info.account.id), keyId, request.body);
      } catch (err) {
        if (!isFormError(err)) throw err;
        return p.render(request, reply, session, { error: err.message }, err.status);
      }
      return reply.redirect(p.back(request), 303);
    });
  };

  change('rename', (by, id, body) => keys.rename(by, { id, name: field(body, 'name') }));
  change('expiry', (by, id, body) => keys.setExpiry(by, { id, expiresAt: expiryField(body) }));
  change('allowed-ips', (by, id, body) => keys.setAllowedIps(by, { id, allowedIps: listField(body, 'allowed_ips') }));
  change('revoke', (by, id) => keys.revoke(by, { id }));
}
