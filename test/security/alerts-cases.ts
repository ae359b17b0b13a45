// Other-team cases of the alerts routes for the security matrix: team A follows something and
// sets alerts on it through v2; team B (same scopes) gets 404 for that follow's alerts.
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '../../src/catalogue.ts';
import type { OtherTeamCase } from './route-table.ts';

type Fixture = Parameters<OtherTeamCase['setup']>[0];

async function teamFollowWithAlerts(f: Fixture): Promise<string> {
  const { key } = await f.ctx.services.credentials.keys.create({
    accountId: f.ownerAccountId,
    teamId: f.ownerTeamId,
    name: 'alerts setup',
    scopes: ['team.follows.read', 'team.follows.write'],
  });
  const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const res = await (f.app as FastifyInstance).inject({ method, url: `/api/v2${url}`, headers: { authorization: `Bearer ${key}` }, payload });
    if (res.statusCode >= 300) throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const follow = await call('POST', '/team/follows', { type: 'search', refId: `alerts matrix ${f.ownerTeamId}` });
  await call('PUT', `/team/follows/${follow.id}/alerts`, { email: { frequency: 'daily' } });
  return follow.id;
}

const byFollow = (body?: unknown): OtherTeamCase => ({
  async setup(f) {
    return { params: { id: await teamFollowWithAlerts(f) }, ...(body === undefined ? {} : { body }) };
  },
});

export const alertsCases: Partial<Record<OperationId, OtherTeamCase>> = {
  'team.follows.alerts.read': byFollow(),
  'team.follows.alerts.set': byFollow({ email: { frequency: 'weekly' } }),
  'team.follows.alerts.clear': byFollow(),
};
