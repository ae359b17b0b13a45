// `node bench/bulk.ts`: the memory and time of a bulk export of the benchmark's synthetic council
// (generate.ts: 200,000 matters, 5,000,000 votes; DATABASE_URL, default the local council_bench).
// This process is the service (startServer, as `npm start` runs it, with the nightly schedule
// off): started otherwise, it starts itself again with `npm start`'s V8 flags and allocator
// settings (package.json), since both change the idle service and the export's worker. Once
// idle, its peak resident set (VmHWM) is reset (Linux: /proc/self/clear_refs "5"), the export
// runs as the job would, and the new peak is read. The aim: the peak stays within
// 100 MiB of the idle service. Files go to a temporary BULK_DIR, removed afterwards.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/kernel/config.ts';
import { startServer } from '../src/server.ts';
import { DEFAULT_DATABASE_URL, generate } from './generate.ts';
import { startEnv, startFlags } from './servers.ts';

const flags = startFlags();
if (!flags.every((f) => process.execArgv.includes(f))) {
  const again = spawnSync(process.execPath, [...flags, import.meta.filename], { stdio: 'inherit', env: { ...process.env, ...startEnv() } });
  process.exit(again.status ?? 1);
}

const MiB = 1024 * 1024;
const status = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const generated = await generate(databaseUrl, (line) => console.log(line));
const bulkDir = mkdtempSync(join(tmpdir(), 'council-bench-bulk-'));
const service = await startServer(
  loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', BULK_DIR: bulkDir, BULK_CRON: 'off', LOG_LEVEL: 'warn' }),
);
try {
  // Idle: a few requests' worth of warm-up is not needed; let start-up garbage be collected.
  await new Promise((r) => setTimeout(r, 3000));
  const idle = status('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  let sampled = 0;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, status('VmRSS'));
  }, 100);
  const started = performance.now();
  const manifest = await service.ctx.services.bulk.export({ onProgress: (line) => console.log(`  ${line}`) });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peak = status('VmHWM');
  const result = {
    database: { counts: generated.counts, bytes: generated.databaseBytes, server: generated.serverVersion },
    seconds: Number(seconds.toFixed(1)),
    rows: manifest.files.find((f) => f.format === 'sqlite')!.rows,
    files: Object.fromEntries(manifest.files.map((f) => [f.name, { rows: f.rows, bytes: f.bytes }])),
    rssIdleMiB: Number((idle / MiB).toFixed(1)),
    rssPeakMiB: Number((peak / MiB).toFixed(1)),
    rssSampledPeakMiB: Number((sampled / MiB).toFixed(1)),
    aboveIdleMiB: Number(((peak - idle) / MiB).toFixed(1)),
    within100MiB: peak - idle <= 100 * MiB,
  };
  console.log(
    `bulk export: ${result.rows} rows in ${result.seconds} s; RSS idle ${result.rssIdleMiB} MiB, peak ${result.rssPeakMiB} MiB (+${result.aboveIdleMiB} MiB; aim ≤ +100 MiB: ${result.within100MiB ? 'met' : 'missed'})`,
  );
  console.log(JSON.stringify(result));
} finally {
  await service.close();
  rmSync(bulkDir, { recursive: true, force: true });
}
