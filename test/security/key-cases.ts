// Other-team cases of the team key and connected-app routes for the security matrix: team A's
// owner makes a team key, or connects an app for the team; team B's key with the same scopes
// gets 404 naming it.
import type { OperationId } from '../../src/catalogue.ts';
import { mintOAuthTokens } from '../helpers/oauth.ts';
import type { OtherTeamCase } from './route-table.ts';

type Fixture = Parameters<OtherTeamCase['setup']>[0];

async function teamKey(f: Fixture): Promise<string> {
  const { id } = await f.ctx.services.credentials.keys.create({ accountId: f.ownerAccountId, teamId: f.ownerTeamId, name: 'theirs', scopes: ['public.read'] });
  return id;
}

async function teamApp(f: Fixture): Promise<string> {
  await mintOAuthTokens(f.ctx, { accountId: f.ownerAccountId, teamId: f.ownerTeamId, scopes: ['public.read'] });
  const { key } = await f.ctx.services.credentials.keys.create({
    accountId: f.ownerAccountId,
    teamId: f.ownerTeamId,
    name: 'lists',
    scopes: ['team.keys.read'],
  });
  const res = await f.app.inject({ method: 'GET', url: '/api/v2/team/apps', headers: { authorization: `Bearer ${key}` } });
  const app = res.json().data?.[0];
  if (!app) throw new Error(`setup: no app listed for team A: ${res.statusCode} ${res.body}`);
  return app.id;
}

const by = (make: (f: Fixture) => Promise<string>, body?: unknown): OtherTeamCase => ({
  async setup(f) {
    return { params: { id: await make(f) }, ...(body === undefined ? {} : { body }) };
  },
});

export const keyCases: Partial<Record<OperationId, OtherTeamCase>> = {
  'team.keys.update': by(teamKey, { name: 'taken over' }),
  'team.keys.revoke': by(teamKey),
  'team.apps.disconnect': by(teamApp),
};
