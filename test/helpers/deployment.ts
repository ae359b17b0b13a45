// A deployment as an operator runs one: instances of the service, each its own process as
// `npm start` runs it, behind HAProxy with the committed deploy/haproxy.cfg, on one PostgreSQL
// database. Used by the tests under test/deploy (they need DATABASE_URL and Debian's haproxy).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { until } from './service.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const haproxyInstalled = (() => {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Why a deployment test cannot run here, or false. */
export const deploySkip = !process.env.DATABASE_URL ? 'needs DATABASE_URL' : !haproxyInstalled ? 'needs haproxy' : false;

export interface Instance {
  url: string;
  port: number;
  process: ChildProcess;
  exit: Promise<number | null>;
}

/**
 * An instance on a port the system picks when it listens (PORT=0), with the address it logs: a port
 * probed free beforehand could be taken by another test's process during the minute a loaded
 * machine spends migrating a fresh database before the instance listens.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['src/cli.ts', 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOAD_SAMPLE: 'false',
      HOST: '127.0.0.1',
      PORT: '0',
      BASE_URL: 'http://council.test',
      TRUST_PROXY: '127.0.0.1',
      DRAIN_SECONDS: '3',
      // As in every test service (helpers/context.ts): on a loaded CI machine a request's wait for
      // a connection can pass the 2 s budget, and a 503 over_budget would be the machine, not the
      // code (it once took one of the exact-limit test's 25 allowed requests). The budget's own
      // tests set theirs.
      REQUEST_DB_BUDGET_MS: '60000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let found = false;
    const deadline = setTimeout(() => {
      if (!found) reject(new Error('an instance did not listen within 180 s'));
    }, 180_000);
    // Read for the instance's whole life, so its log never fills the pipe.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (found || !line.includes('Council Tracker is serving')) return;
      found = true;
      clearTimeout(deadline);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    void exit.then((code) => {
      clearTimeout(deadline);
      if (!found) reject(new Error(`an instance exited (${code}) before it listened`));
    });
  });
  return { url, port: Number(new URL(url).port), process: child, exit };
}

/** The status of GET /ready, or 0 when nothing answers. */
export const ready = (url: string) =>
  fetch(`${url}/ready`).then(
    (r) => r.status,
    () => 0,
  );

export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

export interface Deployment {
  /** The balancer's URL: where users' requests go. */
  front: string;
  instances: Instance[];
  close(): Promise<void>;
}

/** Three instances and HAProxy in front of them, every instance ready and up in HAProxy's eyes. */
export async function deploy(databaseEnv: Record<string, string>, extra: Record<string, string> = {}): Promise<Deployment> {
  // Started at once on the database: migrations take a lock, the others wait.
  const instances = await Promise.all([1, 2, 3].map(() => startInstance({ ...databaseEnv, ...extra })));
  const ports = instances.map((i) => i.port);
  for (const i of instances) await until(`${i.url} is ready`, async () => ((await ready(i.url)) === 200 ? true : undefined), 120);
  const listen = await freePort();
  const balancer = spawn('haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      COUNCIL_LISTEN: `127.0.0.1:${listen}`,
      COUNCIL_1: `127.0.0.1:${ports[0]}`,
      COUNCIL_2: `127.0.0.1:${ports[1]}`,
      COUNCIL_3: `127.0.0.1:${ports[2]}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const front = `http://127.0.0.1:${listen}`;
  // Every server up in HAProxy's eyes (rise 2 × inter 1s): six /ready answers in a row from the front.
  await until('the balancer sends to every instance', async () => {
    for (let k = 0; k < 6; k++) if ((await ready(front)) !== 200) return undefined;
    return true;
  });
  return {
    front,
    instances,
    async close() {
      await stopProcess(balancer);
      for (const i of instances) await stopProcess(i.process);
    },
  };
}
