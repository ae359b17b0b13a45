// Kept values are dropped only for what a change touches (issue 17 §1): a person following a
// record refreshes that record's page (its follower count) and nothing else — every other kept
// page and sitemap stays kept; revoking one key, or sending /oauth/revoke a token that names
// nothing, leaves every other kept credential kept. What is kept is observed through the caches
// themselves — a page or a credential still answered as it was before a change no trigger
// reported is answered from memory — never through timing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { CacheChannel } from '../../src/kernel/coherence.ts';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { seedPublicData } from '../helpers/seed.ts';

let t: TestContext;
let followed: string;
let other: string;
before(async () => {
  t = await startTestContext();
  const seeded = await seedPublicData(t.ctx.db);
  followed = seeded.matters[0]!.recordNumber;
  other = seeded.matters[1]!.recordNumber;
});
after(async () => {
  await t.close();
});

async function newKey(scopes: string[]) {
  const account = await t.ctx.services.accounts.create({ email: `k-${crypto.randomUUID()}@example.org` });
  return t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'keyed', scopes });
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting until ${what}`);
}

/**
 * Runs `scenario` with the channel's lease held. An instance stops using its memory when its
 * lease lapses (a busy machine can starve the renewal) and drops everything when it is back, which
 * moves the channel's generation: a run that failed while the generation moved proves nothing and
 * is run again, at most three times. A run that failed with the generation unmoved fails the test.
 */
async function steadily(channel: CacheChannel, scenario: () => Promise<void>) {
  for (let run = 1; ; run++) {
    await until(() => channel.usable(), 'the cache lease is held');
    const generation = channel.generation();
    try {
      return await scenario();
    } catch (err) {
      if (channel.generation() === generation || run === 3) throw err;
    }
  }
}

/** A change no instance hears of (every trigger off): what is still answered from memory shows it was kept. */
async function unheard(statement: ReturnType<typeof sql>) {
  await t.ctx.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}

test('a follow refreshes the followed record’s page only: every other kept page and sitemap stays kept', async () => {
  const { key } = await newKey(['me.follows.read', 'me.follows.write']);
  const page = async (url: string) => {
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };
  const followers = async () => /(\d+) (?:person or team follows|people and teams follow)/.exec(await page(`/matters/${followed}`))?.[1];
  let run = 0;
  await steadily(t.ctx.caches.publicData, async () => {
    run++;
    const kept = [`/matters/${other}`, `/matters/${other}.md`, '/sitemaps/matters.xml', '/bodies'];
    const before = new Map<string, string>();
    for (const url of kept) before.set(url, await page(url));
    assert.equal(await followers(), '0');
    // Changes no instance hears of: a page made again would show them, a kept one does not.
    const added = `O2099-${String(run).padStart(7, '0')}`;
    await unheard(sql`update matters set title = ${`Changed unheard ${run}`} where record_number = ${other}`);
    await unheard(sql`update bodies set name = name || ${` (unheard ${run})`}`);
    await unheard(sql`insert into matters (id, record_number, type, title, source, source_id)
      values (${`unheard-${run}`}, ${added}, 'Ordinance', 'Added unheard', 'test', ${`unheard-${run}`})`);

    const follow = await t.app.inject({
      method: 'POST',
      url: '/api/v2/me/follows',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { type: 'legislation', refId: followed },
    });
    assert.equal(follow.statusCode, 201, follow.body);
    // The followed record's page is made again once the follow is heard: its count is the new one.
    for (let i = 0; i < 500 && (await followers()) !== '1'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await followers(), '1', 'the followed record’s page shows the new count');
    for (const url of kept) assert.equal(await page(url), before.get(url), `${url} stays kept (it would show what changed unheard)`);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v2/me/follows/${follow.json().id}`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(removed.statusCode, 200, removed.body);
    for (let i = 0; i < 500 && (await followers()) !== '0'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await followers(), '0', 'and the unfollow refreshes it again');
    for (const url of kept) assert.equal(await page(url), before.get(url), `${url} still kept`);
  });
});

test('a change of the public record itself still drops every kept answer', async () => {
  await until(() => t.ctx.caches.publicData.usable(), 'the cache lease is held');
  const before = (await t.app.inject({ url: '/sitemaps/matters.xml' })).body;
  const generation = t.ctx.caches.publicData.generation();
  await sql`insert into matters (id, record_number, type, title, source, source_id)
    values ('heard', 'O2099-1000000', 'Ordinance', 'Added as ingest would', 'test', 'heard')`.execute(t.ctx.db);
  await until(() => t.ctx.caches.publicData.generation() !== generation, 'the change is heard');
  const after = (await t.app.inject({ url: '/sitemaps/matters.xml' })).body;
  assert.notEqual(after, before);
  assert.match(after, /O2099-1000000/);
});

test('revoking one key, or a token that names nothing, leaves every other kept credential kept', async () => {
  await steadily(t.ctx.caches.power, async () => {
    const kept = await newKey(['public.read']);
    const revoked = await newKey(['public.read']);
    const use = (key: string) => t.app.inject({ url: '/api/v1/sources', headers: { authorization: `Bearer ${key}` } });
    assert.equal((await use(kept.key)).statusCode, 200);
    assert.equal((await use(revoked.key)).statusCode, 200);
    // Behind every trigger's back: answered 200 from here on only while the key is kept in memory.
    await unheard(sql`update api_keys set revoked_at = now() where id = ${kept.id}`);
    assert.equal((await use(kept.key)).statusCode, 200);

    await t.ctx.services.credentials.keys.revoke(operator, { id: revoked.id });
    assert.equal((await use(revoked.key)).statusCode, 401, 'the revoked key bites on its next request');
    // RFC 7009 §2.2: an unknown token is answered 200 too; the statement it runs changes no row.
    const bogus = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=ct_at_nothing&client_id=nobody',
    });
    assert.ok(bogus.statusCode < 500, bogus.body);
    // Another account changing: its name.
    const account = await t.ctx.services.accounts.create({ email: `n-${crypto.randomUUID()}@example.org` });
    await sql`update accounts set name = 'Renamed' where id = ${account.id}`.execute(t.ctx.db);
    await t.ctx.caches.settlePower();
    assert.equal((await use(kept.key)).statusCode, 200, 'still answered from memory: none of those changes named it');

    // A change that names it (its person) drops it: the revocation made unheard is seen now.
    await sql`update accounts set name = 'Changed' where id = (select account_id from api_keys where id = ${kept.id})`.execute(t.ctx.db);
    await t.ctx.caches.settlePower();
    assert.equal((await use(kept.key)).statusCode, 401);
  });
});
