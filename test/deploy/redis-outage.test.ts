// Redis gone under load: the service counts limits in a Redis the test starts on its own port
// (the machine's shared Redis is never touched), which is stopped for a while and started again.
// Limits fail closed — a request that cannot be counted answers 503 `unavailable` with
// Retry-After, never a 500 and never uncounted — and the same process counts again once Redis is
// back. Runs on either database.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freshDatabase } from '../helpers/context.ts';
import { freePort } from '../helpers/free-port.ts';
import { readerKey, startService, type TestService, until } from '../helpers/service.ts';

const hasRedis = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skip = !hasRedis && 'needs redis-server';

let redisPort = 0;
let redis: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'council-redis-'));
let db: Awaited<ReturnType<typeof freshDatabase>>;
let service: TestService;
let key = '';

async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  await until('Redis answers', async () => {
    try {
      execFileSync('redis-cli', ['-p', String(redisPort), 'ping'], { stdio: 'ignore' });
      return true;
    } catch {
      return undefined;
    }
  });
}

async function stopRedis(): Promise<void> {
  if (!redis || redis.exitCode !== null) return;
  const gone = new Promise((resolve) => redis!.once('exit', resolve));
  redis.kill('SIGKILL');
  await gone;
}

before(async () => {
  if (skip) return;
  redisPort = await freePort();
  await startRedis();
  db = await freshDatabase();
  service = await startService(db.env, { REDIS_URL: `redis://127.0.0.1:${redisPort}` });
  key = await readerKey(service.ctx);
});
after(async () => {
  await service?.close();
  await stopRedis();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const read = () => fetch(`${service.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${key}` } });

test('Redis stopped under load: limits fail closed with 503 and Retry-After, and count again when it is back', { skip }, async () => {
  assert.equal((await read()).status, 200);
  const counted = Number((await read()).headers.get('ratelimit-remaining'));
  await stopRedis();
  const during: { status: number; retryAfter: string | null; code?: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await read();
    during.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: ((await res.json()) as { code?: string }).code });
  }
  for (const r of during) {
    assert.equal(r.status, 503, JSON.stringify(during));
    assert.equal(r.code, 'unavailable');
    assert.ok(r.retryAfter);
  }
  await startRedis();
  const back = await until('requests are counted again', async () => {
    const res = await read();
    return res.status === 200 ? res : undefined;
  });
  // A new Redis holds no counters: the minute starts again, counted from this request.
  const remaining = Number(back.headers.get('ratelimit-remaining'));
  assert.ok(Number.isFinite(remaining) && remaining >= counted, `remaining ${remaining}`);
  assert.equal(Number((await read()).headers.get('ratelimit-remaining')), remaining - 1);
});
