// HAProxy in front of the benchmark's instances, with the committed deploy/haproxy.cfg unchanged
// (test/deploy starts it the same way). That file names three servers: one instance fills all
// three, two instances leave the third on a port where nothing listens, which HAProxy's checks mark
// down (`fall 2` × `inter 1s`) before the benchmark sends anything — until then a refused
// connection is retried on another server (`retries`, `redispatch`), never an error.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, HOST } from './servers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Balancer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** `instances`: base URLs of one to three instances on loopback. */
export async function startBalancer(instances: string[], deadlineMs = 30_000): Promise<Balancer> {
  if (instances.length < 1 || instances.length > 3) throw new Error('deploy/haproxy.cfg takes one to three instances');
  const hosts = instances.map((u) => new URL(u).host);
  const servers = hosts.length === 1 ? [hosts[0]!, hosts[0]!, hosts[0]!] : [...hosts, `${HOST}:${await freePort()}`].slice(0, 3);
  const listen = await freePort();
  const child: ChildProcess = spawn(process.env.HAPROXY || 'haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', COUNCIL_LISTEN: `${HOST}:${listen}`, COUNCIL_1: servers[0], COUNCIL_2: servers[1], COUNCIL_3: servers[2] },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const stop = async () => {
    if (gone) return;
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killed);
  };
  const url = `http://${HOST}:${listen}`;
  const ready = () =>
    fetch(`${url}/ready`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
  const deadline = Date.now() + deadlineMs;
  // Every live server answering through the front, six times in a row (as test/helpers/deployment.ts waits).
  for (let inARow = 0; inARow < 6; ) {
    if (gone || Date.now() > deadline) {
      await stop();
      throw new Error(`HAProxy did not answer /ready through the front: ${errors.join('').slice(-500)}`);
    }
    inARow = (await ready()) ? inARow + 1 : 0;
    if (inARow === 0) await new Promise((r) => setTimeout(r, 200));
  }
  // The empty third server's checks fail twice a second apart before HAProxy marks it down.
  if (hosts.length === 2) await new Promise((r) => setTimeout(r, 3000));
  return { url, pid: child.pid!, stop };
}
