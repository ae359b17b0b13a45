// `node scripts/mcp-conformance.ts`: the MCP conformance suite (@modelcontextprotocol/conformance,
// a dev dependency, so nothing is downloaded) against a started instance of the service, with the
// committed baseline of expected failures (scripts/mcp-conformance-baseline.yml). The suite sends
// no credential and /mcp accepts none, so a loopback proxy adds a real key's Authorization header
// to every request, as an MCP client configured with that key does. Exits with the suite's code:
// 0 when every failure is in the baseline and every baseline entry still fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/kernel/config.ts';
import { operator } from '../src/kernel/actor.ts';
import { startServer } from '../src/server.ts';

const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(join(tmpdir(), 'council-conformance-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOAD_SAMPLE: 'false',
  PORT: '0',
  HOST: '127.0.0.1',
  ...(dataDir ? { DATA_DIR: dataDir } : {}),
});
const service = await startServer(config);
const account = await service.ctx.services.accounts.create({ email: `conformance-${Date.now()}@example.org` });
// The suite sends a few hundred requests in a minute: more than a new account's default limits.
await service.ctx.services.accounts.setLimits(operator, {
  accountId: account.id,
  limits: { requestsPerDay: 100_000, requestsPerMinute: 100_000, aiAnswersPerDay: 100 },
});
const { key } = await service.ctx.services.credentials.keys.create({ accountId: account.id, name: 'conformance', scopes: ['public.read', 'public.ai'] });
const target = new URL(service.url);

const proxy = createServer((incoming, outgoing) => {
  const forwarded = request(
    { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, authorization: `Bearer ${key}` } },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', () => outgoing.destroy());
  incoming.pipe(forwarded);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;

const baseline = new URL('./mcp-conformance-baseline.yml', import.meta.url).pathname;
const suite = spawn('conformance', ['server', '--url', url, '--expected-failures', baseline, ...process.argv.slice(2)], { stdio: 'inherit' });
const code = await new Promise<number>((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));

proxy.closeAllConnections();
await new Promise((resolve) => proxy.close(resolve));
await service.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
