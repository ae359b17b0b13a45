// Shared set-up for the v1 public-data route tests: a seeded database and a public.read key.
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { type Seeded, seedPublicData } from '../../helpers/seed.ts';

export interface V1 {
  t: TestContext;
  seeded: Seeded;
  get(url: string): Promise<{ status: number; body: any }>;
}

export async function startV1(): Promise<V1> {
  const t = await startTestContext();
  const seeded = await seedPublicData(t.ctx.db);
  const account = await t.ctx.services.accounts.create({ email: 'reader@example.org' });
  // These suites make hundreds of requests; the operator's per-account override lifts the limits
  // (the limits themselves are tested with the credentials module).
  await t.ctx.services.accounts.setLimits(operator, {
    accountId: account.id,
    limits: { requestsPerMinute: 1_000_000, requestsPerDay: 1_000_000 },
  });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'reader', scopes: ['public.read'] });
  return {
    t,
    seeded,
    async get(url) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
      return { status: res.statusCode, body: res.json() };
    },
  };
}
