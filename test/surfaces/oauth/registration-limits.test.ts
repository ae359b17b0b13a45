// Dynamic client registration (RFC 7591) under load and over time: at most
// OAUTH_REGISTRATIONS_PER_HOUR clients per client address in an hour (429 rate_limited with
// Retry-After, nothing stored, exact under concurrent requests), metadata that cannot be
// registered is a 400 that does not count, and the hourly clean-up deletes only clients that never
// got a grant and are older than OAUTH_UNUSED_CLIENT_TTL_SECONDS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { unusedClientsKind } from '../../../src/modules/credentials/oauth/cleanup.ts';
import { until } from '../../helpers/service.ts';
import type { Browser } from '../web/browser.ts';
import { authorize, exchange, ISSUER, type OAuthTest, startOAuthTest } from './helpers.ts';

const clock = new ManualClock('2026-03-02T09:00:00Z');
const PER_HOUR = 3;
let o: OAuthTest;
let browser: Browser;

before(async () => {
  // The test client's requests come from 127.0.0.1; as a trusted proxy, its X-Forwarded-For names the client address.
  o = await startOAuthTest({ TRUST_PROXY: '127.0.0.1', OAUTH_REGISTRATIONS_PER_HOUR: String(PER_HOUR), OAUTH_UNUSED_CLIENT_TTL_SECONDS: '86400' }, clock);
  browser = await o.signIn('limits@example.org');
});
after(async () => {
  await o?.close();
});

const METADATA = { redirect_uris: ['http://127.0.0.1:7777/callback'], client_name: 'Limited Agent', token_endpoint_auth_method: 'none' };

/** A registration request through oauth4webapi from `address` (the raw response). */
function registrationFrom(address: string, metadata: Partial<oauth.Client> = METADATA): Promise<Response> {
  return oauth.dynamicClientRegistrationRequest(o.as, metadata, { ...o.http, headers: { 'x-forwarded-for': address } });
}

async function registerFrom(address: string): Promise<oauth.Client> {
  return (await oauth.processDynamicClientRegistrationResponse(await registrationFrom(address))) as oauth.Client;
}

/** A raw JSON body POSTed to the registration endpoint from `address`. */
async function rawRegistration(address: string, body: string): Promise<{ status: number; body: any }> {
  const res = await o.http[oauth.customFetch](`${ISSUER}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body,
  });
  return { status: res.status, body: await res.json() };
}

const clientIds = async () => (await o.t.ctx.db.selectFrom('oauth_clients').select('id').execute()).map((r) => r.id).sort();

test('the registration after the limit from one address is refused with 429 and Retry-After, storing nothing; another address is unaffected; the window slides', async () => {
  const here = '203.0.113.10';
  for (let i = 0; i < PER_HOUR; i++) {
    await registerFrom(here);
    clock.advance(10 * 60_000);
  }
  // 30 minutes after the first: it leaves the window in 30 minutes.
  const stored = await clientIds();
  const refused = await registrationFrom(here);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), String(30 * 60));
  assert.match(refused.headers.get('cache-control')!, /no-store/);
  await assert.rejects(oauth.processDynamicClientRegistrationResponse(refused), (err: any) => {
    assert.ok(err instanceof oauth.ResponseBodyError);
    assert.equal(err.error, 'rate_limited');
    assert.match(err.error_description!, /Too many clients/);
    return true;
  });
  assert.deepEqual(await clientIds(), stored, 'nothing stored for a refused registration');

  // Another client address has its own count.
  await registerFrom('203.0.113.11');
  await registerFrom('2001:db8::11');

  // The first registration leaves the window: one more fits, then the second decides the wait.
  clock.advance(30 * 60_000 + 1000);
  await registerFrom(here);
  const again = await registrationFrom(here);
  assert.equal(again.status, 429);
  assert.equal(again.headers.get('retry-after'), String(10 * 60 - 1));
});

test('an IPv6 client address is counted by its /64: another address in it is refused, the next /64 is not', async () => {
  for (let i = 1; i <= PER_HOUR; i++) await registerFrom(`2001:db8:7:1::${i}`);
  const rotated = await registrationFrom('2001:db8:7:1:ffff:ffff:ffff:fffe');
  assert.equal(rotated.status, 429);
  await registerFrom('2001:db8:7:2::1');
  const kept = await o.t.ctx.db.selectFrom('oauth_clients').select('registered_from').where('registered_from', 'like', '2001:db8:7:%').execute();
  assert.deepEqual([...new Set(kept.map((r) => r.registered_from))].sort(), ['2001:db8:7:1::/64', '2001:db8:7:2::/64'], 'the network is kept, not the address');
});

test('concurrent registrations from one address: exactly the limit succeed', async () => {
  const here = '198.51.100.20';
  const before = (await clientIds()).length;
  const answers = await Promise.all(Array.from({ length: PER_HOUR + 4 }, () => registrationFrom(here)));
  const statuses = answers.map((r) => r.status).sort();
  assert.deepEqual(statuses, [...Array(PER_HOUR).fill(201), ...Array(4).fill(429)]);
  assert.equal((await clientIds()).length, before + PER_HOUR);
});

test('hostile or oversized metadata is a 400 that stores nothing and does not count; a body over 1 MiB is 413', async () => {
  const here = '198.51.100.30';
  const before = await clientIds();
  const hostile: [string, string][] = [
    [JSON.stringify({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/cb${i}`) }), 'invalid_redirect_uri'],
    [JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(100_000) }), 'invalid_client_metadata'],
    [JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_uri: `https://a.example/${'p'.repeat(5000)}` }), 'invalid_client_metadata'],
    [JSON.stringify(['https://a.example/cb']), 'invalid_client_metadata'],
    // Refused by the database inside the limit's transaction: rolled back, not counted.
    [JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'nul\u0000byte' }), 'invalid_request'],
    ['{"redirect_uris": [', 'invalid_request'],
  ];
  for (const [body, error] of [...hostile, ...hostile]) {
    const res = await rawRegistration(here, body);
    assert.equal(res.status, 400, body.slice(0, 80));
    assert.equal(res.body.error, error, body.slice(0, 80));
  }
  const huge = await rawRegistration(here, JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(1_100_000) }));
  assert.equal(huge.status, 413);
  assert.deepEqual(await clientIds(), before);
  // None of them counted: the whole hour's allowance is still there, and bad metadata stays a 400 once it is used up.
  for (let i = 0; i < PER_HOUR; i++) await registerFrom(here);
  assert.equal((await registrationFrom(here)).status, 429);
  assert.equal((await rawRegistration(here, hostile[0]![0])).status, 400);
});

test('the clean-up deletes clients that never got a grant once they are a day old; used, recent and fresh ones stay', async () => {
  clock.advance(2 * 3600_000);
  const db = o.t.ctx.db;
  const unused = await registerFrom('192.0.2.1');
  const revokedUse = await registerFrom('192.0.2.2');
  const liveUse = await registerFrom('192.0.2.3');
  const codeOnly = await registerFrom('192.0.2.4');
  // A grant later revoked: the client stays, the connected-apps history keeps naming it.
  const revokedTokens = await exchange(o, revokedUse, await authorize(o, browser, revokedUse));
  const revocation = await oauth.revocationRequest(o.as, revokedUse, oauth.None(), revokedTokens.refresh_token!, o.http);
  await oauth.processRevocationResponse(revocation);
  assert.ok((await db.selectFrom('oauth_grants').select('revoked_at').where('client_id', '=', revokedUse.client_id).executeTakeFirstOrThrow()).revoked_at);
  await exchange(o, liveUse, await authorize(o, browser, liveUse));
  // Cached client ID metadata documents: one past its cache lifetime, one still fresh.
  const doc = (id: string, freshForMs: number) => ({
    id,
    kind: 'metadata_document' as const,
    client_name: 'Document client',
    redirect_uris: ['https://docs.example/cb'],
    fetched_at: clock.now(),
    fresh_until: new Date(clock.now().getTime() + freshForMs),
  });
  await db
    .insertInto('oauth_clients')
    .values([doc('https://docs.example/stale.json', 3600_000), doc('https://docs.example/fresh.json', 48 * 3600_000)])
    .execute();

  // A minute before the day is up: an authorization code, never redeemed, and a new client.
  clock.advance(24 * 3600_000 - 60_000);
  await authorize(o, browser, codeOnly);
  const fresh = await registerFrom('192.0.2.5');

  // Every other client so far (the earlier tests' too) is over a day old and never got a grant.
  clock.advance(2 * 60_000);
  const all = await clientIds();
  assert.ok(all.includes(unused.client_id) && all.includes('https://docs.example/stale.json'));
  const kept = [revokedUse.client_id, liveUse.client_id, codeOnly.client_id, fresh.client_id, 'https://docs.example/fresh.json'].sort();
  assert.deepEqual(await o.t.ctx.services.oauth.deleteUnusedClients(), { deleted: all.length - kept.length });
  assert.deepEqual(await clientIds(), kept);

  // Once its code is long expired, the client that only ever got a code goes too; the rest stay.
  clock.advance(2 * 3600_000);
  assert.deepEqual(await o.t.ctx.services.oauth.deleteUnusedClients(), { deleted: 1 });
  assert.deepEqual(
    await clientIds(),
    kept.filter((id) => id !== codeOnly.client_id),
  );
  assert.equal((await db.selectFrom('oauth_grants').select('id').where('client_id', 'in', [revokedUse.client_id, liveUse.client_id]).execute()).length, 2);
});

test('the clean-up is scheduled hourly on the job queue and runs there', async () => {
  const jobs = o.t.ctx.jobs;
  await jobs.start();
  try {
    await o.t.ctx.services.oauth.start();
    assert.deepEqual(await jobs.scheduled(unusedClientsKind), ['hourly']);
    const doomed = await registerFrom('192.0.2.9');
    clock.advance(25 * 3600_000);
    await jobs.send(unusedClientsKind, { reason: 'test' }, { singletonKey: 'unused-clients' });
    const done = await until('the clean-up job completed', async () => {
      const job = await jobs.latest(unusedClientsKind, 'unused-clients');
      return job?.state === 'completed' ? job : undefined;
    });
    assert.ok((done.output as { deleted: number }).deleted >= 1);
    assert.ok(!(await clientIds()).includes(doomed.client_id));
  } finally {
    await jobs.stop();
  }
});

test('a client cleaned up between the consent page and Approve is a 400 that says so, not a server error', async () => {
  const client = await registerFrom('198.51.100.40');
  const request = await o.t.ctx.services.oauth.authorize.check({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: METADATA.redirect_uris[0],
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    scope: 'public.read',
  });
  const account = await o.t.ctx.services.accounts.create({ email: 'gone-app@example.org' });
  await o.t.ctx.db.deleteFrom('oauth_clients').where('id', '=', client.client_id).execute();
  await assert.rejects(o.t.ctx.services.oauth.approve(request, account.id, 'personal'), (err: any) => {
    assert.equal(err.code, 'invalid_request');
    assert.match(err.message, /no longer registered/);
    return true;
  });
  assert.equal((await o.t.ctx.db.selectFrom('oauth_codes').select('hash').where('client_id', '=', client.client_id).execute()).length, 0);
});
