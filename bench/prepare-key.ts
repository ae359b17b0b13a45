// The benchmark's caller, made through the service's own modules as an operator would: one
// account (reused between runs) with limits raised far above what a run sends, so the run
// measures counting without being refused by it, a fresh public.read + public.ai key (the
// answers route) that expires in a day, and an OAuth access token of the same account and scopes
// (issued through the authorization server's own steps), so both credentials are measured.
// BENCH_ONLY=capacity adds a team (reused between runs) and a key of it that writes notes.
import { type AppContext, createContext } from '../src/context.ts';
import { operator } from '../src/kernel/actor.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { mintOAuthTokens } from '../test/helpers/oauth.ts';

const EMAIL = 'bench@bench.invalid';
const TEAM_EMAIL = 'bench-team@bench.invalid';
const HIGH_LIMIT = 1_000_000_000;
const limits = { requestsPerDay: HIGH_LIMIT, requestsPerMinute: HIGH_LIMIT, aiAnswersPerDay: HIGH_LIMIT };
const inADay = () => new Date(Date.now() + 24 * 3600 * 1000);

async function withContext<T>(databaseUrl: string, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  // Each run registers an OAuth client from the same test address: at the default of 20 an hour,
  // the 21st run in an hour would be refused, so the preparation allows the most the setting takes.
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOAD_SAMPLE: 'false',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
  });
  const ctx = await createContext(config, { migrate: false, caches: false });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

/** A fresh key of the benchmark's team (its owner's), allowed to write the team's notes; limits far above a run. */
export function prepareTeamKey(databaseUrl: string): Promise<string> {
  return withContext(databaseUrl, async (ctx) => {
    const { accounts, credentials } = ctx.services;
    const owner = (await accounts.findByEmail(TEAM_EMAIL)) ?? (await accounts.create({ email: TEAM_EMAIL, name: 'Benchmark team owner' }));
    await accounts.setLimits(operator, { accountId: owner.id, limits });
    const teamId =
      (await accounts.memberships(owner.id))[0]?.teamId ??
      (await accounts.teams.create(operator, { name: 'Benchmark team', ownerAccountId: owner.id, features: ['team_data'] })).id;
    await accounts.teams.setLimits(operator, { teamId, limits });
    const created = await credentials.keys.create({
      accountId: owner.id,
      teamId,
      name: 'benchmark team writes',
      scopes: ['team.notes.write', 'public.read'],
      expiresAt: inADay(),
    });
    return created.key;
  });
}

export function prepareKey(databaseUrl: string): Promise<{ key: string; accessToken: string }> {
  return withContext(databaseUrl, async (ctx) => {
    const { accounts, credentials } = ctx.services;
    const account = (await accounts.findByEmail(EMAIL)) ?? (await accounts.create({ email: EMAIL, name: 'Benchmark' }));
    await accounts.setLimits(operator, { accountId: account.id, limits });
    const created = await credentials.keys.create({
      accountId: account.id,
      name: 'benchmark',
      scopes: ['public.read', 'public.ai'],
      expiresAt: inADay(),
    });
    const { access_token } = await mintOAuthTokens(ctx, { accountId: account.id, teamId: null, scopes: ['public.read', 'public.ai'] });
    return { key: created.key, accessToken: access_token };
  });
}
