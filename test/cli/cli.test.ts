// The operator CLI end to end, as a child process: with no service running it opens the database
// itself; with `council serve` running it reaches the service (through the admin socket on the
// embedded database, directly on PostgreSQL) and a change it makes bites on the next request.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { freshDatabase } from '../helpers/context.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pglite = !process.env.DATABASE_URL;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let env: NodeJS.ProcessEnv;

before(async () => {
  db = await freshDatabase();
  env = { ...process.env, NODE_ENV: 'test', LOAD_SAMPLE: 'false', LOG_LEVEL: 'silent', ...db.env };
  if (pglite) delete env.DATABASE_URL;
});
after(async () => {
  await db.drop();
});

const cli = (...args: string[]) => runCli(env, args);

async function cliJson(...args: string[]): Promise<any> {
  const r = await cli(...args, '--json');
  assert.equal(r.code, 0, `council ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const state: { teamId: string; keyId: string; key: string } = { teamId: '', keyId: '', key: '' };

describe('with no service running', () => {
  test('accounts, a team, a member and a team key, in JSON and in text', async () => {
    const owner = await cliJson('accounts', 'create', '--email', 'owner@example.org', '--name', 'Olu Owner');
    assert.match(owner.id, /^acc_/);
    assert.equal(owner.email, 'owner@example.org');
    const text = await cli('accounts', 'create', '--email', 'admin@example.org');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^created account acc_\S+ <admin@example\.org>\n$/);
    const team = await cli('teams', 'create', '--name', 'Ward Watch', '--owner', 'OWNER@example.org', '--features', 'team_data,people');
    assert.equal(team.code, 0, team.stderr);
    state.teamId = team.stdout.trim();
    assert.match(state.teamId, /^team_[0-9a-f-]+$/);
    const added = await cliJson('teams', 'members', 'add', '--team', state.teamId, '--email', 'admin@example.org', '--role', 'admin');
    assert.deepEqual(
      added.members.map((m: any) => [m.email, m.role]),
      [
        ['owner@example.org', 'owner'],
        ['admin@example.org', 'admin'],
      ],
    );
    const key = await cliJson(
      'keys',
      'create',
      '--email',
      'admin@example.org',
      '--name',
      'positions bot',
      '--scopes',
      'public.read team.positions.write',
      '--team',
      state.teamId,
    );
    assert.deepEqual(Object.keys(key).sort(), ['id', 'key']);
    assert.match(key.key, /^ctk_[0-9A-Za-z]{32}$/);
    state.keyId = key.id;
    state.key = key.key;
  });

  test('a scope the key kind cannot hold is a bad argument: exit 2, one line, nothing on stdout', async () => {
    const r = await cli('keys', 'create', '--email', 'owner@example.org', '--name', 'x', '--scopes', 'me.follows.read', '--team', state.teamId, '--json');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^council: A team key cannot hold me\.follows\.read[^\n]*\n$/);
  });
});

describe('with the service running', () => {
  let server: ChildProcess;
  let base = '';
  let serverExit: Promise<number | null>;

  before(async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['src/cli.ts', 'serve'], {
      cwd: root,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: base },
      stdio: 'ignore',
    });
    serverExit = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600 || server.exitCode !== null) throw new Error('the service did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  after(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
  });

  const me = (key = state.key) => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  const meJson = async (): Promise<any> => (await me()).json();

  test('on the embedded database the admin socket is there, and only its user may open it', { skip: !pglite }, () => {
    const mode = statSync(join(db.env.DATA_DIR!, 'admin.sock')).mode;
    assert.ok((mode & 0o170000) === 0o140000, 'a socket');
    assert.equal(mode & 0o777, 0o600);
  });

  test('an operator demoting an admin bites on the next request', async () => {
    assert.deepEqual((await meJson()).scopes, ['public.read', 'team.positions.write']);
    const r = await cliJson('teams', 'members', 'set-role', '--team', state.teamId, '--email', 'admin@example.org', '--role', 'member');
    assert.equal(r.members.find((m: any) => m.email === 'admin@example.org').role, 'member');
    const demoted = await meJson();
    assert.deepEqual(demoted.scopes, ['public.read']);
    assert.equal(demoted.team.role, 'member');
  });

  test('switching a feature off bites on the next request', async () => {
    const r = await cliJson('teams', 'features', '--team', state.teamId, '--disable', 'people');
    assert.deepEqual(r.features, ['team_data']);
    assert.deepEqual((await meJson()).team.features, ['team_data']);
  });

  test('limits, key lists and revocation go through the same service', async () => {
    const limits = await cliJson('teams', 'limits', '--team', state.teamId, '--per-minute', '240');
    assert.equal(limits.limits.requestsPerMinute, 240);
    assert.equal((await meJson()).limits.requestsPerMinute, 240);
    const list = await cliJson('keys', 'list', '--team', state.teamId);
    assert.deepEqual(
      list.keys.map((k: any) => [k.id, k.prefix]),
      [[state.keyId, state.key.slice(0, 8)]],
    );
    assert.ok(!JSON.stringify(list).includes(state.key.slice(8)), 'the value is never shown again');
    const revoked = await cli('keys', 'revoke', '--id', state.keyId);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /^revoked key_/);
    const res = await me();
    assert.equal(res.status, 401);
    assert.match(String(res.headers.get('www-authenticate')), /^Bearer resource_metadata="/);
  });

  test('errors from the service keep their exit codes: unknown ids 1, bad input 2', async () => {
    const missing = await cli('teams', 'show', '--team', 'team_nope');
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'council: No such team.\n');
    const badSource = await cli('ingest', 'no-such-source');
    assert.equal(badSource.code, 2);
    assert.match(badSource.stderr, /^council: [^\n]*no-such-source[^\n]*\n$/);
  });

  test('a second service on the same embedded database is refused', { skip: !pglite }, async () => {
    const second = await cli('serve');
    assert.equal(second.code, 1);
    assert.match(second.stderr, /already running/);
  });

  test('the service stops cleanly and removes its socket', async () => {
    server.kill('SIGTERM');
    assert.equal(await serverExit, 0);
    if (pglite) assert.equal(existsSync(join(db.env.DATA_DIR!, 'admin.sock')), false);
  });
});

describe('after the service stopped', () => {
  test('a socket left by a service that died is removed and the CLI opens the database itself', { skip: !pglite }, async () => {
    const path = join(db.env.DATA_DIR!, 'admin.sock');
    // A process that listens on the socket and dies without cleaning up, as after a crash.
    const crash = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    await new Promise((r) => crash.once('exit', r));
    assert.ok(existsSync(path));
    const shown = await cliJson('teams', 'show', '--team', state.teamId);
    assert.deepEqual(
      shown.members.map((m: any) => [m.email, m.role]),
      [
        ['owner@example.org', 'owner'],
        ['admin@example.org', 'member'],
      ],
    );
    assert.equal(existsSync(path), false);
  });

  test('migrate reports nothing left to do', async () => {
    const r = await cliJson('migrate');
    assert.deepEqual(r.applied, []);
    assert.ok(r.alreadyApplied > 0);
  });
});
