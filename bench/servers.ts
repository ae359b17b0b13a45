// Child processes under test: the real service, the ceiling server and the unguarded server.
// Every wait has a deadline, and every address is loopback.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { residentBytes } from './proc.ts';

export const HOST = '127.0.0.1';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function startScript(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/);
}
const isAssignment = (word: string) => /^[A-Z_][A-Z0-9_]*=/.test(word);

/** `npm start`'s arguments after `node` (its V8 flags included), from package.json. */
export function startArgs(): string[] {
  const words = startScript();
  const [node, ...args] = words.slice(words.findIndex((w) => !isAssignment(w)));
  if (node !== 'node') throw new Error(`package.json's start script does not run node: ${startScript().join(' ')}`);
  return args;
}

/**
 * `npm start`'s V8 flags alone: the benchmark's other processes that stand for the service (the
 * unguarded route, the pages server) run with them, so only what they leave out differs from it.
 */
export function startFlags(): string[] {
  const args = startArgs();
  return args.slice(
    0,
    args.findIndex((a) => !a.startsWith('-')),
  );
}

/** The environment `npm start` sets before `node` (the allocator's arenas), from package.json. */
export function startEnv(): Record<string, string> {
  const words = startScript();
  const assignments = words.slice(
    0,
    words.findIndex((w) => !isAssignment(w)),
  );
  return Object.fromEntries(assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
}

/**
 * BENCH_HEAP (off by default), to tell the service's garbage from its live data at the end of a run:
 * `gc` starts it with --expose-gc, so its memory breakdown adds the heap in use after a full
 * collection; `snapshot` also writes a V8 heap snapshot at the end (into heapSnapshotDir).
 */
const benchHeap = process.env.BENCH_HEAP ?? '';
if (!['', 'gc', 'snapshot'].includes(benchHeap)) throw new Error('BENCH_HEAP takes "gc", "snapshot" or nothing');
export const heapSnapshotDir = join(tmpdir(), 'council-bench-heap');

/** The service's arguments: `npm start`'s, with BENCH_HEAP's flags first. */
export function serviceArgs(): string[] {
  const flags = benchHeap ? ['--expose-gc'] : [];
  if (benchHeap === 'snapshot') {
    mkdirSync(heapSnapshotDir, { recursive: true });
    flags.push('--heapsnapshot-signal=SIGUSR1', `--diagnostic-dir=${heapSnapshotDir}`);
  }
  // BENCH_PROFILE=1: the service writes a V8 CPU profile when it stops (open it in Chrome's DevTools).
  if (process.env.BENCH_PROFILE) flags.push('--cpu-prof', `--cpu-prof-dir=${join(tmpdir(), 'council-bench-profile')}`);
  return [...flags, ...startArgs()];
}

/** With BENCH_HEAP=snapshot, has the child write a heap snapshot and returns its path once written (null otherwise). */
export async function heapSnapshot(child: Child, timeoutMs = 300_000): Promise<string | null> {
  if (benchHeap !== 'snapshot') return null;
  const mine = () => readdirSync(heapSnapshotDir).filter((f) => f.includes(`.${child.pid}.`) && f.endsWith('.heapsnapshot'));
  const before = new Set(mine());
  process.kill(child.pid, 'SIGUSR1');
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const file = mine().find((f) => !before.has(f));
    if (!file) continue;
    // Written in one go: done when its size stops changing.
    const size = statSync(join(heapSnapshotDir, file)).size;
    if (size > 0 && size === last) return join(heapSnapshotDir, file);
    last = size;
  }
  return null;
}

export interface Child {
  name: string;
  url: string;
  pid: number;
  /** Peak resident set size of the process so far (VmHWM), in bytes. */
  peakRss(): number;
  alive(): boolean;
  stop(): Promise<void>;
  /**
   * The service's own breakdown of its memory (SIGUSR2, src/kernel/memory-report.ts), read from its
   * log; null when it printed none within two seconds.
   */
  memory(): Promise<Record<string, number> | null>;
}

/** Last lines a child wrote, shown when it fails to start or dies during a run. */
function tail(chunks: string[]): string {
  return chunks.join('').split('\n').slice(-20).join('\n');
}

// Start-up compiles the TypeScript sources: on a shared machine under load that takes a while.
export async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, readyPath: string, timeoutMs = 180_000): Promise<Child> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = code ?? (signal ? 128 : 1);
      resolve();
    }),
  );
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`${name} exited with ${exited} before it was ready:\n${tail(output)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${tail(output)}`);
    }
    const ok = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  return {
    name,
    url,
    pid,
    peakRss: () => residentBytes(pid).hwm,
    async stop() {
      if (exited !== null) return;
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(killed);
    },
    alive: () => exited === null,
    async memory() {
      const seen = output.length;
      child.kill('SIGUSR2');
      for (let i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 50));
        for (const line of output
          .slice(Math.max(0, seen - 1))
          .join('')
          .split('\n')) {
          if (!line.includes('"msg":"memory"')) continue;
          try {
            return (JSON.parse(line) as { memory: Record<string, number> }).memory;
          } catch {
            // A line cut between chunks: wait for the rest.
          }
        }
      }
      return null;
    },
  };
}
