// The in-memory caches (credentials and public answers) against the database and other
// instances: they are really used, a change to what they hold drops them, a change of power is settled
// before its writer answers (so it bites on the next request at another instance), and a lost
// listener or a silent instance cannot make anyone serve stale power.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { operator } from '../../src/kernel/actor.ts';
import { settlePower } from '../../src/kernel/coherence.ts';
import { seedPublicData } from '../helpers/seed.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let a: TestContext;
/** A second instance on the same PostgreSQL database (only there can two processes share one). */
let b: TestContext | null = null;
let record: string;

before(async () => {
  a = await startTestContext();
  const seeded = await seedPublicData(a.ctx.db);
  record = seeded.matters[0]!.recordNumber;
  if (onPostgres) b = await startTestContext({ databaseUrl: a.config.databaseUrl! });
});
after(async () => {
  await b?.close();
  await a.close();
});

async function newKey(ctx: TestContext, scopes: string[] = ['public.read'], teamId?: string) {
  const { accounts, credentials } = ctx.ctx.services;
  const account = await accounts.create({ email: `c-${crypto.randomUUID()}@example.org` });
  const created = await credentials.keys.create({ accountId: account.id, name: 'coherence', scopes, ...(teamId ? { teamId } : {}) });
  return { account, id: created.id, key: created.key };
}

function get(ctx: TestContext, url: string, key: string) {
  return ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
}

/** Runs `statement` with every trigger switched off: a change no instance hears of. */
async function unheard(ctx: TestContext, statement: ReturnType<typeof sql>) {
  await ctx.ctx.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting until ${what}`);
}

test('a verified key is kept in memory, and a change to that key drops it', async () => {
  const { id, key } = await newKey(a);
  assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 200);
  // Revoked behind every trigger's back: the instance still holds the key as it was, which
  // shows the check is answered from memory.
  await unheard(a, sql`update api_keys set revoked_at = now() where id = ${id}`);
  assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 200);
  // A barrier alone drops nothing (migration 0150): it only waits for the changes sent before it.
  await settlePower(a.ctx.db);
  assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 200);
  // A notified change of this key drops what every instance holds of it; settled, it has happened.
  await sql`update api_keys set name = 'renamed' where id = ${id}`.execute(a.ctx.db);
  await settlePower(a.ctx.db);
  const refused = await get(a, '/api/v1/sources', key);
  assert.equal(refused.statusCode, 401);
  assert.match(refused.json().detail, /revoked/);
});

test('revoking through the service bites on the very next request', async () => {
  for (let i = 0; i < 5; i++) {
    const { id, key } = await newKey(a);
    assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 200);
    await a.ctx.services.credentials.keys.revoke(operator, { id });
    assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 401);
  }
});

test('a public answer is kept until the public record changes', async () => {
  const { key } = await newKey(a);
  const url = `/api/v1/matters/${encodeURIComponent(record)}`;
  const first = await get(a, url, key);
  assert.equal(first.statusCode, 200);
  const title = first.json().title as string;
  await unheard(a, sql`update matters set title = 'Changed where nobody hears' where record_number = ${record}`);
  const kept = await get(a, url, key);
  assert.equal(kept.json().title, title, 'the answer comes from memory');
  assert.equal(kept.headers['content-type'], first.headers['content-type']);
  assert.equal(kept.body, first.body);
  // A change made normally (an ingest, an operator's SQL) fires the trigger and drops it.
  const before = a.ctx.caches.publicData.generation();
  await sql`update matters set title = 'Changed as ingest would' where record_number = ${record}`.execute(a.ctx.db);
  await until(() => a.ctx.caches.publicData.generation() !== before, 'the change is heard');
  assert.equal((await get(a, url, key)).json().title, 'Changed as ingest would');
});

test('every table of the public record tells the instances when it changes (kept answers are dropped)', async () => {
  // The public record's tables are those with provenance (source_url); each needs the notifying trigger of 0070.
  const { rows } = await sql<{ table_name: string; notified: boolean }>`
    select c.table_name,
      exists (select 1 from pg_trigger g join pg_class r on r.oid = g.tgrelid
              where r.relname = c.table_name and g.tgname = c.table_name || '_public_data_changed') as notified
    from information_schema.columns c
    where c.table_schema = current_schema() and c.column_name = 'source_url'
    order by 1`.execute(a.ctx.db);
  assert.ok(rows.some((r) => r.table_name === 'lobbying_gifts') && rows.some((r) => r.table_name === 'committee_attendance'));
  assert.deepEqual(
    rows.filter((r) => !r.notified).map((r) => r.table_name),
    [],
  );
});

test('an unknown record is never kept: it is found once it arrives', async () => {
  const { key } = await newKey(a);
  const url = '/api/v1/matters/O2099-0000001';
  assert.equal((await get(a, url, key)).statusCode, 404);
  assert.equal((await get(a, url, key)).statusCode, 404);
});

test('the guard runs before a kept answer: no credential, no answer', async () => {
  const { key } = await newKey(a);
  const url = `/api/v1/matters/${encodeURIComponent(record)}`;
  assert.equal((await get(a, url, key)).statusCode, 200);
  const anonymous = await a.app.inject({ method: 'GET', url });
  assert.equal(anonymous.statusCode, 401);
});

test('two instances: a revocation or demotion at one bites on the next request at the other', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const other = b!;
  for (let i = 0; i < 5; i++) {
    const { id, key } = await newKey(a);
    assert.equal((await get(other, '/api/v1/sources', key)).statusCode, 200);
    await a.ctx.services.credentials.keys.revoke(operator, { id });
    assert.equal((await get(other, '/api/v1/sources', key)).statusCode, 401, `attempt ${i + 1}`);
  }
  // A demotion: a team admin's key loses the write scope a member cannot hold.
  const owner = await a.ctx.services.accounts.create({ email: `o-${crypto.randomUUID()}@example.org` });
  const team = await a.ctx.services.accounts.teams.create(operator, { name: 'Coherence', ownerAccountId: owner.id, features: ['team_data'] });
  const admin = await a.ctx.services.accounts.create({ email: `a-${crypto.randomUUID()}@example.org` });
  await a.ctx.services.accounts.members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
  const made = await a.ctx.services.credentials.keys.create({ accountId: admin.id, teamId: team.id, name: 'admin key', scopes: ['team.follows.write'] });
  const scopesAt = async () => (await get(other, '/api/v2/me', made.key)).json().scopes as string[];
  assert.ok((await scopesAt()).includes('team.follows.write'));
  await a.ctx.services.accounts.members.setRole(operator, { teamId: team.id, accountId: admin.id, role: 'member' });
  assert.ok(!(await scopesAt()).includes('team.follows.write'));
});

test('a lost listener stops the use of kept keys until it is back, and then they are dropped', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const other = b!;
  const { id, key } = await newKey(a);
  assert.equal((await get(other, '/api/v1/sources', key)).statusCode, 200);
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`.execute(a.ctx.db);
  await until(() => !other.ctx.caches.power.usable(), 'the instance notices its listener is gone');
  // Meanwhile a change nobody hears: the instance asks the database instead of its memory.
  await unheard(a, sql`update api_keys set revoked_at = now() where id = ${id}`);
  assert.equal((await get(other, '/api/v1/sources', key)).statusCode, 401);
  await until(() => other.ctx.caches.power.usable(), 'the listener is back');
  assert.equal((await get(other, '/api/v1/sources', key)).statusCode, 401);
});

test('a writer does not wait forever on an instance that stopped without leaving', async () => {
  // A row renewed just now that will never acknowledge anything: the writer waits out its lease.
  await sql`insert into cache_peers (id, acked, renewed_at) values ('peer_gone', 0, now())`.execute(a.ctx.db);
  const { id, key } = await newKey(a);
  await a.ctx.services.credentials.keys.revoke(operator, { id });
  assert.equal((await get(a, '/api/v1/sources', key)).statusCode, 401);
  await sql`delete from cache_peers where id = 'peer_gone'`.execute(a.ctx.db);
});
