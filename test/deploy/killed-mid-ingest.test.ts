// The embedded database: the service killed with SIGKILL while it loads the bundled sample on its
// first start starts again and completes the load — its public tables then hold exactly what a
// clean load holds (compared row by row, leaving out when each row was written; the clean load is
// the suite's shared copy of the sample, loaded by the same ingest, test/helpers/context.ts). Each file
// of the ingest commits its own records, so nothing is half-written; what the kill left undone is
// done by the next start. PGlite only: on a server, the same ingest runs under the same lock.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { createContext } from '../../src/context.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { freshDatabase } from '../helpers/context.ts';
import { tableChecksums } from '../helpers/table-checksums.ts';
import { until } from '../helpers/service.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Embedded database only. Each start here loads the whole bundled sample, which on a loaded CI
// machine can take minutes: each wait is bounded at ten minutes. Looked into when a restart was
// once slow: no start-up lock outlives the killed process (the advisory locks are its session's,
// the admin socket it left is removed), the embedded database's recovery takes seconds, the
// restart no longer loads again what the cut-off load had finished, and a start that fails
// fails the test at once.
const skip = process.env.DATABASE_URL ? 'the embedded database only' : false;
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Each start listens on a port the system picks when it listens (PORT=0) and logs its address: a
// port probed free beforehand could be taken by another test's connection during the minute or more
// a loaded machine spends migrating a fresh database before the service listens.
function serve(dataDir: string): { child: ChildProcess; lines: AsyncIterable<string>; exit: Promise<unknown> } {
  const child = spawn(process.execPath, ['src/cli.ts', 'serve'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOAD_SAMPLE: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return {
    child,
    lines: createInterface({ input: child.stdout! }),
    exit: new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code))),
  };
}

/** Serves until ready (the sample loaded), then stops with SIGTERM; the lines it logged. */
async function startAndStop(dataDir: string): Promise<string[]> {
  const s = serve(dataDir);
  const logged: string[] = [];
  let url: string | undefined;
  void (async () => {
    for await (const line of s.lines) {
      logged.push(line);
      if (url === undefined && line.includes('Council Tracker is serving')) url = (JSON.parse(line) as { url: string }).url;
    }
  })();
  let exited = false;
  void s.exit.then(() => {
    exited = true;
  });
  await until(
    'ready',
    async () => {
      // A start that fails says so at once rather than after the wait.
      assert.equal(exited, false, 'the service exited before it was ready');
      if (url === undefined) return undefined;
      const status = await fetch(`${url}/ready`).then(
        (r) => r.status,
        () => 0,
      );
      return status === 200 ? true : undefined;
    },
    600,
  );
  s.child.kill('SIGTERM');
  await s.exit;
  return logged;
}

/** Bookkeeping of the ingest itself, and columns saying when a row was written. */
const notCompared = new Set(['source_sync', 'ingest_progress', 'schema_migrations', 'cache_peers']);
const writtenAt = ['first_seen_at', 'updated_at', 'last_synced_at', 'fetched_at', 'created_at'];

async function tables(dataDir: string): Promise<Map<string, string>> {
  const ctx = await createContext(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOAD_SAMPLE: 'false' }), { caches: false });
  try {
    return await tableChecksums(ctx.db, { tables: notCompared, columns: writtenAt });
  } finally {
    await ctx.close();
  }
}

test('killed mid-way through the first load, the next start completes it: the tables equal a clean load', { skip }, async () => {
  const killed = mkdtempSync(join(tmpdir(), 'council-killed-'));
  const clean = await freshDatabase({ sample: true });
  dirs.push(killed, clean.env.DATA_DIR!);

  const first = serve(killed);
  let cutAt = '';
  // The last lines the first start logged, to say why it ended if it was not cut.
  const last: string[] = [];
  for await (const line of first.lines) {
    last.push(line);
    if (last.length > 20) last.shift();
    if (/loaded the bundled Chicago sample/.test(line)) break;
    // The eLMS part is in, campaign finance is starting: kill it here.
    if (/campaign_finance: sync started/.test(line)) {
      cutAt = line;
      break;
    }
  }
  first.child.kill('SIGKILL');
  const ended = await first.exit;
  assert.ok(cutAt, `the load was cut before it finished; the first start ended (${String(ended)}) after logging:\n${last.join('\n')}`);
  const half = await tables(killed);
  assert.ok(Number.parseInt(half.get('matters') ?? '0', 10) > 0, 'the first part was loaded');

  // The restart goes on where the load was cut: what was finished is not read again.
  const resumed = (await startAndStop(killed)).join('\n');
  assert.match(resumed, /elms: loaded before the last start was cut off, not read again/);
  assert.doesNotMatch(resumed, /elms: sync started/);
  assert.match(resumed, /campaign_finance: sync started/);
  const [after, expected] = [await tables(killed), await tables(clean.env.DATA_DIR!)];
  assert.ok(Number.parseInt(expected.get('receipts') ?? '0', 10) > 0, 'a clean load holds campaign receipts');
  assert.deepEqual(Object.fromEntries(after), Object.fromEntries(expected));
});
