// The whole service as `npm start` runs it (startServer: admin socket, job queue and workers, HTTP
// on a loopback port), on a test database. Several may run on one database in turn (a restart),
// or at once on PostgreSQL (two instances).
import { loadConfig } from '../../src/kernel/config.ts';
import type { AppContext } from '../../src/context.ts';
import { startServer } from '../../src/server.ts';

export interface TestService {
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

/** `database`: the env of freshDatabase() (DATA_DIR or DATABASE_URL). */
export async function startService(database: Record<string, string>, env: Record<string, string> = {}): Promise<TestService> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOAD_SAMPLE: 'false',
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: 'http://council.test',
    REQUEST_DB_BUDGET_MS: '60000',
    ...database,
    ...env,
  });
  return startServer(config);
}

/** A new account's key with `public.read`: enough for every public route. */
export async function readerKey(ctx: AppContext): Promise<string> {
  const account = await ctx.services.accounts.create({ email: `reader-${crypto.randomUUID()}@example.org` });
  return (await ctx.services.credentials.keys.create({ accountId: account.id, name: 'reader', scopes: ['public.read'] })).key;
}

/** GET over real HTTP with a key; the status and the parsed body. */
export async function getJson(service: TestService, path: string, key: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

/** Polls `check` (every 200 ms, at most `seconds`) until it returns something other than undefined. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits, when needed, until at least `marginMs` remain in the current window of the service's
 * limits (fixed buckets of the epoch: 60 s for the minute, the UTC day for the day), so requests
 * that a test counts all fall in one bucket. A burst that straddles the window's end is counted in
 * two buckets, and more than the limit rightly succeed.
 */
export async function awayFromWindowEnd(windowMs: number, marginMs = 20_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
