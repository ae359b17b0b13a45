// What one instance does, another sees (issue 19, "Several instances behind a real load
// balancer"): three instances behind HAProxy on PostgreSQL. A dashboard's live stream opened
// through the balancer gets the writes made at every instance; an OAuth code issued by one
// process is redeemed exactly once however many instances it is presented to at once (the other
// tries revoke what it issued, everywhere), and
// refresh-token rotation holds when each step lands on a different instance (oauth4webapi as
// the client, RFC 6749 §4.1.2 and §6, RFC 9700 §4.14.2).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { s256 } from '../../src/modules/credentials/oauth/index.ts';
import { freshDatabase, startTestContext, type TestContext } from '../helpers/context.ts';
import { type Deployment, deploy, deploySkip as skip } from '../helpers/deployment.ts';
import { seedPublicData } from '../helpers/seed.ts';
import { dashboardTeam, openStream } from '../surfaces/dashboard/helpers.ts';

const ISSUER = 'http://council.test';
const REDIRECT = 'http://127.0.0.1:7777/callback';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let d: Deployment;
let t: TestContext;

before(async () => {
  if (skip) return;
  db = await freshDatabase();
  t = await startTestContext({ databaseUrl: db.env.DATABASE_URL! });
  await seedPublicData(t.ctx.db);
  d = await deploy(db.env);
});
after(async () => {
  await d?.close();
  await t?.ctx.close();
  await db?.drop();
});

/** oauth4webapi's options with every request sent to `target` (an instance, or the balancer). */
function via(target: string) {
  const send: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    assert.equal(url.origin, ISSUER);
    return fetch(`${target}${url.pathname}${url.search}`, init);
  };
  return { [oauth.customFetch]: send, [oauth.allowInsecureRequests]: true as const };
}

test('a live dashboard stream opened through the balancer gets the writes made at every instance', { skip }, async () => {
  const team = await dashboardTeam(t);
  const port = Number(new URL(d.front).port);
  const stream = await openStream(port, `/dashboard/${team.id}/events`, `ct_session=${team.sessions.owner}`);
  try {
    assert.equal(stream.status, 200);
    // One note written at each instance: at least two of them are not the stream's.
    for (const [n, instance] of d.instances.entries()) {
      const res = await fetch(`${instance.url}/api/v2/team/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${team.keys.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: `Written at instance ${n + 1}` }),
      });
      assert.equal(res.status, 201);
      const { id } = (await res.json()) as { id: string };
      await stream.waitFor((e) => e.event === 'team' && JSON.parse(e.data).id === id, 15_000);
    }
  } finally {
    stream.close();
  }
});

let revokedByReplays = '';

async function authorizationCode(client: oauth.Client, accountId: string, verifier: string): Promise<URL> {
  // The consent, approved in the operator's process (a fourth process on the database).
  const request = await t.ctx.services.oauth.authorize.check({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    scope: 'public.read',
  });
  return new URL(await t.ctx.services.oauth.approve(request, accountId, 'personal'));
}

test('OAuth across instances: a code is redeemed once of ten tries spread over them; each rotation step lands elsewhere', { skip }, async () => {
  const account = await t.ctx.services.accounts.create({ email: `oauth-${crypto.randomUUID()}@example.org` });
  const [a, b, c] = d.instances.map((i) => via(i.url)) as [ReturnType<typeof via>, ReturnType<typeof via>, ReturnType<typeof via>];
  const as = await oauth.processDiscoveryResponse(new URL(ISSUER), await oauth.discoveryRequest(new URL(ISSUER), { ...a, algorithm: 'oauth2' }));
  const registered = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT], client_name: 'Deploy agent', token_endpoint_auth_method: 'none' },
    b,
  );
  const client = (await oauth.processDynamicClientRegistrationResponse(registered)) as oauth.Client;

  // RFC 6749 §4.1.2: a code is used once. Ten redemptions at once, through the balancer.
  const verifier = oauth.generateRandomCodeVerifier();
  const callback = await authorizationCode(client, account.id, verifier);
  const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
  const redeem = () =>
    oauth
      .authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, via(d.front))
      .then((res) => oauth.processAuthorizationCodeResponse(as, client, res))
      .then(
        (tokens) => tokens,
        (err: { error?: string }) => err.error ?? String(err),
      );
  const results = await Promise.all(Array.from({ length: 10 }, redeem));
  const issued = results.filter((r) => typeof r !== 'string');
  assert.equal(issued.length, 1, JSON.stringify(results));
  assert.deepEqual(new Set(results.filter((r) => typeof r === 'string')), new Set(['invalid_grant']));

  // RFC 6749 §4.1.2 also says a code used again should revoke what its first use issued. Here
  // the replays race the first use (each waits on the code's row lock); the next test checks
  // that its tokens were revoked everywhere.
  revokedByReplays = issued[0]!.access_token;

  // RFC 6749 §6 and RFC 9700 §4.14.2: each refresh at another instance rotates the token; the
  // rotated one presented again (at a third) revokes the grant, which bites at every instance.
  const fresh = oauth.generateRandomCodeVerifier();
  const granted = oauth.validateAuthResponse(as, client, await authorizationCode(client, account.id, fresh), oauth.skipStateCheck);
  const first = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), granted, REDIRECT, fresh, c),
  );
  const second = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, a));
  const third = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), second.refresh_token!, b));
  for (const i of d.instances) {
    assert.equal((await fetch(`${i.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${third.access_token}` } })).status, 200);
  }
  await assert.rejects(
    oauth.refreshTokenGrantRequest(as, client, oauth.None(), second.refresh_token!, c).then((res) => oauth.processRefreshTokenResponse(as, client, res)),
    (err: { error?: string }) => err.error === 'invalid_grant',
  );
  for (const i of d.instances) {
    assert.equal((await fetch(`${i.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${third.access_token}` } })).status, 401);
  }
});

test('the replays of a code that raced its first use revoke what it issued, at every instance', { skip }, async () => {
  assert.ok(revokedByReplays, 'the race above ran');
  for (const i of d.instances) {
    assert.equal((await fetch(`${i.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${revokedByReplays}` } })).status, 401, i.url);
  }
});
