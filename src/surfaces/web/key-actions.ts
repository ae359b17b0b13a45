// The form POSTs behind a key page (create, rename, change expiry, change allowed IPs, revoke,
// disconnect an app), mounted under the account page and under a team's Settings → API keys. Each
// performs a catalogue operation as the signed-in person (settings-viewer.ts): the account page
// acts on the person's own keys, the team page on the team's. A refused or malformed form brings
// the page back with the message and the error's status, and nothing changes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { KeyContext } from '../../modules/credentials/index.ts';
import { all } from '../dashboard/viewer.ts';
import { field, fields, listField } from './form.ts';
import { requireCsrf, type SignedIn, signedIn } from './security.ts';
import { personalViewer, type SettingsViewer, settingsViewer } from './settings-viewer.ts';

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

type KeyChange = { name?: string; expiresAt?: string | null; allowedIps?: string[] };

/**
 * Who changes a key or an app from a page. On a team page owners and admins act for the team;
 * other members act on the keys and apps they made for it, as their own, and nothing else of the
 * team exists for them there (404).
 */
async function actingOn(ctx: AppContext, session: SignedIn, v: SettingsViewer, id: string, what: 'keys' | 'apps'): Promise<SettingsViewer> {
  if (v.actor.team === null || v.may(what === 'keys' ? 'team.keys.update' : 'team.apps.disconnect')) return v;
  const theirs =
    what === 'keys'
      ? await all((cursor) => v.perform('team.keys.list', { limit: 200, ...(cursor ? { cursor } : {}) }))
      : (await v.perform('team.apps.list', {})).data;
  if (!theirs.some((x) => x.id === id)) throw new AppError('not_found', what === 'keys' ? 'No such API key.' : 'No such connected app.');
  return personalViewer(ctx, session);
}

async function changeKey(ctx: AppContext, session: SignedIn, v: SettingsViewer, id: string, change: KeyChange | 'revoke'): Promise<void> {
  const who = await actingOn(ctx, session, v, id, 'keys');
  const team = who.actor.team !== null;
  if (change === 'revoke') await who.perform(team ? 'team.keys.revoke' : 'me.keys.revoke', { id });
  else await who.perform(team ? 'team.keys.update' : 'me.keys.update', { id, change });
}

async function disconnectApp(ctx: AppContext, session: SignedIn, v: SettingsViewer, id: string): Promise<void> {
  const who = await actingOn(ctx, session, v, id, 'apps');
  await who.perform(who.actor.team ? 'team.apps.disconnect' : 'me.apps.disconnect', { id });
}

export function registerKeyActions(app: FastifyInstance, ctx: AppContext, p: KeyPage): void {
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
      const v = await settingsViewer(ctx, session, where);
      if (previous.owner !== (teamId ?? 'personal')) {
        throw new AppError(
          'invalid_request',
          teamId
            ? 'Keys made here belong to this team; make personal keys on your account page.'
            : "Keys made on the account page are personal; make team keys under the team's Settings → API keys.",
        );
      }
      const input = { name: previous.name, scopes: previous.scopes, expiresAt: expiryField(body), allowedIps: listField(body, 'allowed_ips') };
      const created = await v.perform(teamId ? 'team.keys.create' : 'me.keys.create', input);
      return p.render(request, reply, session, { created: { name: created.apiKey.name, key: created.key } }, 201);
    } catch (err) {
      if (!isFormError(err)) throw err;
      return p.render(request, reply, session, { error: err.message, previous }, err.status);
    }
  });

  /** A POST that changes one thing and returns to the page. */
  const action = (path: string, apply: (session: SignedIn, v: SettingsViewer, id: string, body: unknown) => Promise<unknown>) => {
    app.post(`${p.base}/${path}`, { preHandler: csrf }, async (request, reply) => {
      const session = signedIn(request, reply)!;
      const { id } = request.params as { id: string };
      try {
        await apply(session, await settingsViewer(ctx, session, p.context(request, session)), id, request.body);
      } catch (err) {
        if (!isFormError(err)) throw err;
        return p.render(request, reply, session, { error: err.message }, err.status);
      }
      return reply.redirect(p.back(request), 303);
    });
  };

  action(':id/rename', (s, v, id, body) => changeKey(ctx, s, v, id, { name: field(body, 'name') }));
  action(':id/expiry', (s, v, id, body) => changeKey(ctx, s, v, id, { expiresAt: expiryField(body) }));
  action(':id/allowed-ips', (s, v, id, body) => changeKey(ctx, s, v, id, { allowedIps: listField(body, 'allowed_ips') }));
  action(':id/revoke', (s, v, id) => changeKey(ctx, s, v, id, 'revoke'));
  // Disconnecting a connected app (an OAuth grant) listed on the same page.
  action('apps/:id/disconnect', (s, v, id) => disconnectApp(ctx, s, v, id));
}
