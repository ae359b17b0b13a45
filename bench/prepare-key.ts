// The benchmark's caller, made through the service's own modules as an operator would: one
// account (reused between runs) with limits raised far above what a run sends, so the run
// measures counting without being refused by it, a fresh public.read + public.ai key (the
// answers route) that expires in a day, and an OAuth access token of the same account and scopes
// (issued through the authorization server's own steps), so both credentials are measured.
import { loadConfig } from '../src/kernel/config.ts';
import { createContext } from '../src/context.ts';
import { operator } from '../src/kernel/actor.ts';
import { mintOAuthTokens } from '../test/helpers/oauth.ts';

const EMAIL = 'bench@bench.invalid';
const HIGH_LIMIT = 1_000_000_000;

export async function prepareKey(databaseUrl: string): Promise<{ key: string; accessToken: string }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOAD_SAMPLE: 'false', NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  const ctx = await createContext(config, { migrate: false, caches: false });
  try {
    const { accounts, credentials } = ctx.services;
    const account = (await accounts.findByEmail(EMAIL)) ?? (await accounts.create({ email: EMAIL, name: 'Benchmark' }));
    await accounts.setLimits(operator, {
      accountId: account.id,
      limits: { requestsPerDay: HIGH_LIMIT, requestsPerMinute: HIGH_LIMIT, aiAnswersPerDay: HIGH_LIMIT },
    });
    const created = await credentials.keys.create({
      accountId: account.id,
      name: 'benchmark',
      scopes: ['public.read', 'public.ai'],
      expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
    });
    const { access_token } = await mintOAuthTokens(ctx, { accountId: account.id, teamId: null, scopes: ['public.read', 'public.ai'] });
    return { key: created.key, accessToken: access_token };
  } finally {
    await ctx.close();
  }
}
