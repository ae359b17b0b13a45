// The stall of issue 17 §1, measured once (not a test: it reports times). The service runs in a
// child process on a fresh embedded database (or DATABASE_URL) with the bundled sample; one key
// sends STALL_LOOPS parallel loops of a GraphQL document of STALL_FIELDS aliased
// `moneyTotals(period: "month")` fields (default 9: the most a document may hold within the cost
// bound; 45 is refused before it runs) for STALL_SECONDS, while another caller asks for
// /robots.txt and a one-row matters list in turn. It prints the other caller's p50, p99 and max
// for each, and what the heavy requests got.
//
//   node bench/stall.ts                      # embedded database
//   DATABASE_URL=postgres://… node bench/stall.ts
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const loops = Number(process.env.STALL_LOOPS ?? 4);
const fields = Number(process.env.STALL_FIELDS ?? 9);
const seconds = Number(process.env.STALL_SECONDS ?? 15);

if (process.argv[2] === 'serve') {
  // The service, alone in its process: the load's own work does not share its event loop.
  process.env.LOG_LEVEL = 'silent';
  const { buildApp } = await import('../src/app.ts');
  const { createContext } = await import('../src/context.ts');
  const { loadConfig } = await import('../src/kernel/config.ts');
  const { operator } = await import('../src/kernel/actor.ts');
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOAD_SAMPLE: 'true', SMTP_URL: 'smtp://127.0.0.1:1' });
  const ctx = await createContext(config);
  await ctx.services.ingest.loadSampleIfEmpty(() => {});
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const key = async (email: string) => {
    const account = await ctx.services.accounts.create({ email });
    await ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 10_000_000, requestsPerMinute: 10_000_000 } });
    return (await ctx.services.credentials.keys.create({ accountId: account.id, name: 'stall', scopes: ['public.read'] })).key;
  };
  process.send!({ port: (app.server.address() as AddressInfo).port, heavyKey: await key('heavy@example.org'), otherKey: await key('other@example.org') });
  process.on(
    'disconnect',
    () =>
      void app
        .close()
        .then(() => ctx.close())
        .then(() => process.exit(0)),
  );
} else {
  const dir = mkdtempSync(join(tmpdir(), 'council-stall-'));
  const child = fork(new URL(import.meta.url).pathname, ['serve'], { env: { ...process.env, DATA_DIR: dir } });
  const { port, heavyKey, otherKey } = await new Promise<{ port: number; heavyKey: string; otherKey: string }>((resolve) =>
    child.once('message', resolve as never),
  );
  const base = `http://127.0.0.1:${port}`;
  const document = `{ ${Array.from({ length: fields }, (_, i) => `m${i}: moneyTotals(period: "month") { period data { period receipts { count amount } expenditures { count amount } } }`).join(' ')} }`;

  const until = performance.now() + seconds * 1000;
  const heavy = new Map<string, number>();
  const heavyLoop = async () => {
    while (performance.now() < until) {
      const res = await fetch(`${base}/api/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${heavyKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: document }),
      });
      const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      const what = `${res.status} ${[...new Set((body.errors ?? []).map((e) => e.extensions?.code))].join(',') || 'ok'}`;
      heavy.set(what, (heavy.get(what) ?? 0) + 1);
    }
  };
  const times: Record<string, number[]> = { '/robots.txt': [], '/api/v1/matters?limit=1': [] };
  const statuses = new Map<number, number>();
  const otherCaller = async () => {
    // Starts once the heavy loops are under way.
    await new Promise((r) => setTimeout(r, 500));
    while (performance.now() < until) {
      for (const path of Object.keys(times)) {
        const started = performance.now();
        const res = await fetch(`${base}${path}`, { headers: path.startsWith('/api/') ? { authorization: `Bearer ${otherKey}` } : {} });
        await res.arrayBuffer();
        times[path]!.push(performance.now() - started);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }
  };
  await Promise.all([otherCaller(), ...Array.from({ length: loops }, heavyLoop)]);

  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const report: Record<string, unknown> = {
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    loops,
    fields,
    seconds,
    heavy: Object.fromEntries(heavy),
    other: Object.fromEntries(statuses),
  };
  for (const [path, list] of Object.entries(times)) {
    const sorted = [...list].sort((a, b) => a - b);
    report[path] = { n: sorted.length, p50: Math.round(at(sorted, 0.5)), p99: Math.round(at(sorted, 0.99)), max: Math.round(sorted.at(-1) ?? Number.NaN) };
  }
  console.log(JSON.stringify(report));
  child.disconnect();
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
