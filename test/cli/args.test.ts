import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseCommandLine, UsageError } from '../../src/cli/commands.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const parse = (line: string[]) => parseCommandLine(line);

test('every decisions.md command parses into a plain command', () => {
  assert.deepEqual(parse(['migrate']), { kind: 'run', command: { name: 'migrate' }, json: false });
  assert.deepEqual(parse(['serve']), { kind: 'serve' });
  assert.deepEqual(parse(['ingest', 'elms', '--from', 'dir', '--since', '2024-01-01', '--json']), {
    kind: 'run',
    command: { name: 'ingest', source: 'elms', from: 'dir', since: '2024-01-01' },
    json: true,
  });
  assert.deepEqual(parse(['accounts', 'create', '--email', 'a@example.org', '--name', 'A']).kind, 'run');
  assert.deepEqual(parse(['accounts', 'limits', '--email', 'a@example.org', '--per-day', '5000', '--ai-per-day', 'default']), {
    kind: 'run',
    command: { name: 'accounts limits', email: 'a@example.org', limits: { requestsPerDay: 5000, aiAnswersPerDay: null } },
    json: false,
  });
  assert.deepEqual(parse(['teams', 'create', '--name', 'T', '--owner', 'o@example.org', '--features', 'people,offices']), {
    kind: 'run',
    command: { name: 'teams create', teamName: 'T', owner: 'o@example.org', features: ['people', 'offices'] },
    json: false,
  });
  for (const sub of ['add', 'set-role']) {
    const p = parse(['teams', 'members', sub, '--team', 't1', '--email', 'e@example.org', '--role', 'admin']);
    assert.deepEqual(p, { kind: 'run', command: { name: `teams members ${sub}`, team: 't1', email: 'e@example.org', role: 'admin' }, json: false });
  }
  assert.equal((parse(['teams', 'members', 'remove', '--team', 't1', '--email', 'e@example.org']) as any).command.name, 'teams members remove');
  assert.deepEqual((parse(['teams', 'features', '--team', 't1', '--enable', 'advocacy,analytics', '--disable', 'people']) as any).command, {
    name: 'teams features',
    team: 't1',
    enable: ['advocacy', 'analytics'],
    disable: ['people'],
  });
  assert.deepEqual((parse(['teams', 'limits', '--team', 't1', '--per-minute', '300']) as any).command.limits, { requestsPerMinute: 300 });
  assert.deepEqual(
    (
      parse([
        'keys',
        'create',
        '--email',
        'e@example.org',
        '--name',
        'k',
        '--scopes',
        'public.read  public.ai',
        '--team',
        't1',
        '--expires',
        '2031-01-01T00:00:00Z',
        '--allowed-ips',
        '10.0.0.0/8, 2001:db8::1',
      ]) as any
    ).command,
    {
      name: 'keys create',
      email: 'e@example.org',
      keyName: 'k',
      scopes: ['public.read', 'public.ai'],
      team: 't1',
      expires: '2031-01-01T00:00:00Z',
      allowedIps: ['10.0.0.0/8', '2001:db8::1'],
    },
  );
  assert.deepEqual((parse(['keys', 'revoke', '--id', 'key_1', '--json']) as any).command, { name: 'keys revoke', id: 'key_1' });
  assert.deepEqual(parse(['--help']), { kind: 'help', topic: null });
  assert.deepEqual(parse(['keys', 'create', '--help']), { kind: 'help', topic: 'keys create' });
});

test('bad arguments are usage errors naming the problem', () => {
  const bad: [string[], RegExp][] = [
    [['frobnicate'], /unknown command "frobnicate"/],
    [['teams', 'members'], /unknown command "teams members"/],
    [['accounts', 'create'], /missing --email/],
    [['accounts', 'create', '--email', 'a@example.org', '--colour', 'red'], /Unknown option '--colour'/],
    [['teams', 'members', 'add', '--team', 't', '--email', 'e@example.org', '--role', 'boss'], /unknown role "boss"/],
    [['teams', 'features', '--team', 't', '--enable', 'lasers'], /unknown feature "lasers"/],
    [['keys', 'create', '--email', 'e@example.org', '--name', 'k', '--scopes', 'public.write'], /unknown scope "public.write"/],
    [['keys', 'create', '--email', 'e@example.org', '--name', 'k', '--scopes', 'public.read', '--expires', '2031-02-30'], /--expires/],
    [['keys', 'create', '--email', 'e@example.org', '--name', 'k', '--scopes', 'public.read', '--allowed-ips', '10.0.0.300'], /allowed-ips/],
    [['accounts', 'limits', '--email', 'a@example.org', '--per-day', '-5'], /per-day|argument/],
    [['accounts', 'limits', '--email', 'a@example.org', '--per-minute', '1.5'], /--per-minute must be a whole number/],
    [['ingest'], /missing <source>/],
    [['ingest', 'elms', 'extra'], /unexpected argument "extra"/],
    [['keys', 'list'], /--email or --team/],
    [['--jsonn'], /unknown option/],
  ];
  for (const [line, message] of bad) {
    assert.throws(
      () => parse(line),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
      line.join(' '),
    );
  }
});

test('the CLI exits 2 with a one-line error on a bad argument, and prints help with --help', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['src/cli.ts', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, DATA_DIR: '/nonexistent-never-opened' } });
  const bad = run(['teams', 'create', '--name', 'T', '--owner', 'o@example.org', '--features', 'lasers', '--json']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^council: unknown feature "lasers"[^\n]*\n$/);
  const unknown = run(['keys', 'rotate']);
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr.split('\n').filter(Boolean).length, 1);
  const help = run(['--help']);
  assert.equal(help.status, 0);
  for (const command of [
    'serve',
    'migrate',
    'ingest <source>',
    'accounts create',
    'accounts limits',
    'teams create',
    'teams members add',
    'teams members set-role',
    'teams members remove',
    'teams features',
    'teams limits',
    'keys create',
    'keys revoke',
  ]) {
    assert.ok(help.stdout.includes(`  ${command}\n`), `help lists ${command}`);
  }
  // The package's bin runs the same CLI (what `npx council` starts).
  const bin = spawnSync(process.execPath, ['bin/council.js', '--help'], { cwd: root, encoding: 'utf8' });
  assert.equal(bin.status, 0);
  assert.equal(bin.stdout, help.stdout);
});
