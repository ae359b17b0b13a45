// Webhooks end to end on the job queue: endpoints behind the SSRF guard, signed deliveries that a
// local receiver verifies, one delivery per endpoint and event, retries after failures with every
// attempt recorded, a redirect to a private address refused at delivery time, and the
// publication interface other modules call.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { accountActor } from '../../helpers/actors.ts';
import { startWorkers } from '../../../src/workers.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { until } from '../../helpers/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { signIn } from '../../surfaces/v2/team-helpers.ts';
import { Browser } from '../../surfaces/web/browser.ts';

let t: TestContext;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestContext({
    env: {
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_LIMIT: '2',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      WEBHOOK_SWEEP_SECONDS: '1',
      JOBS_STOP_GRACE_SECONDS: '1',
    },
  });
  await startWorkers(t.ctx);
});
after(async () => {
  await t.close();
  await receiver.close();
});

async function person() {
  const account = await t.ctx.services.accounts.create({ email: `hooks-${crypto.randomUUID()}@example.org` });
  return { id: account.id, by: accountActor(account.id) };
}

async function endpoint(by: ReturnType<typeof accountActor>, path: string) {
  const added = await t.ctx.services.webhooks.add(by, { url: `${receiver.url}${path}` });
  assert.match(added.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  receiver.secrets.set(path, added.secret);
  return added;
}

const deliveriesOf = async (by: ReturnType<typeof accountActor>) => (await t.ctx.services.webhooks.list(by)).deliveries;

/** On a timeout, what the deliveries and their jobs looked like (for diagnosing a slow queue). */
async function explain(by: ReturnType<typeof accountActor>, err: Error): Promise<never> {
  const deliveries = await deliveriesOf(by);
  const jobs =
    await sql`select state, retry_count, start_after, started_on, completed_on, singleton_key, output from pgboss.job where name = 'webhooks.deliver' and singleton_key in (${sql.join(deliveries.map((d) => d.id))})`.execute(
      t.ctx.db,
    );
  throw new Error(`${err.message}\n${JSON.stringify({ deliveries, jobs: jobs.rows, now: new Date() }, null, 1)}`);
}

test('endpoint URLs at private, link-local, unique-local, loopback or IPv4-carrying IPv6 addresses, or not https-like, are refused and nothing is stored', async () => {
  const { by } = await person();
  for (const url of [
    'http://10.0.0.1/hook',
    'https://169.254.169.254/latest',
    'https://[fd00::1]/x',
    'https://[::ffff:192.168.0.1]/',
    // IPv4-compatible, NAT64, 6to4 and Teredo forms of loopback and private addresses (issue 17).
    'https://[::127.0.0.1]:8765/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://[2002:a00:1::1]/hook',
    'https://[2001:0:7f00:1::fefe:fefe]/hook',
    'ftp://example.com/',
    'https://user:pw@example.com/',
    'not a url',
    '',
    `https://x.example/${'a'.repeat(2100)}`,
  ]) {
    await assert.rejects(t.ctx.services.webhooks.add(by, { url }), (err: any) => err.code === 'invalid_request' && err.status === 400, url);
  }
  assert.deepEqual((await t.ctx.services.webhooks.list(by)).endpoints, []);
});

test('a published event reaches every endpoint once, signed; the same event id again delivers nothing more', async () => {
  const { id, by } = await person();
  await endpoint(by, '/a');
  await endpoint(by, '/b');
  const event = { id: `evt_test_${crypto.randomUUID()}`, type: 'credential.issued', data: { hello: 'world' } };
  await t.ctx.services.webhooks.publish(id, event);
  await t.ctx.services.webhooks.publish(id, event);
  await until('both endpoints got the event', async () => (receiver.received.filter((r) => r.id === event.id).length >= 2 ? true : undefined), 30);
  const deliveries = await until('both deliveries are delivered', async () => {
    const d = await deliveriesOf(by);
    return d.length === 2 && d.every((x) => x.status === 'delivered') ? d : undefined;
  });
  const got = receiver.received.filter((r) => r.id === event.id);
  assert.deepEqual(got.map((r) => r.path).sort(), ['/a', '/b']);
  for (const r of got) {
    assert.equal(r.verified, true, 'the signature verifies with the endpoint secret');
    const body = JSON.parse(r.body);
    assert.equal(body.type, 'credential.issued');
    assert.deepEqual(body.data, { hello: 'world' });
    assert.match(r.timestamp, /^\d{10}$/);
  }
  assert.ok(deliveries.every((d) => d.tries.length === 1 && d.tries[0]!.status_code === 204 && d.tries[0]!.error === null));
  // Another account's endpoints never see it; a signature with another secret does not verify.
  const other = await person();
  await endpoint(other.by, '/other');
  assert.equal(receiver.received.filter((r) => r.path === '/other').length, 0);
});

test('a failing endpoint is retried with backoff, every attempt recorded, until it answers 2xx', async () => {
  const { id, by } = await person();
  await endpoint(by, '/flaky');
  receiver.script.set('/flaky', [{ status: 500 }, { status: 503 }]);
  const event = { id: `evt_test_${crypto.randomUUID()}`, type: 'credential.revoked', data: {} };
  await t.ctx.services.webhooks.publish(id, event);
  const [delivery] = await until('the delivery succeeds on the third attempt', async () => {
    const d = await deliveriesOf(by);
    return d[0]?.status === 'delivered' ? d : undefined;
  }).catch((err) => explain(by, err));
  assert.deepEqual(
    delivery!.tries.map((a) => a.status_code),
    [500, 503, 204],
  );
  assert.match(delivery!.tries[0]!.error!, /answered 500/);
  assert.equal(receiver.received.filter((r) => r.id === event.id).length, 3);
  assert.ok(receiver.received.filter((r) => r.id === event.id).every((r) => r.verified));
});

test('an endpoint that keeps failing ends as failed after the last retry', async () => {
  const { id, by } = await person();
  await endpoint(by, '/down');
  receiver.script.set('/down', [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }]);
  await t.ctx.services.webhooks.publish(id, { id: `evt_test_${crypto.randomUUID()}`, type: 'credential.revoked', data: {} });
  const [delivery] = await until('the delivery has failed', async () => {
    const d = await deliveriesOf(by);
    return d[0]?.status === 'failed' ? d : undefined;
  }).catch((err) => explain(by, err));
  assert.equal(delivery!.tries.length, 3, 'the first attempt and WEBHOOK_RETRY_LIMIT=2 retries');
});

test('a redirect to a private address is refused at delivery and recorded as a failed attempt', async () => {
  const { id, by } = await person();
  await endpoint(by, '/moved');
  receiver.script.set('/moved', [
    { redirect: 'http://10.0.0.9/steal' },
    { redirect: 'http://169.254.169.254/latest/meta-data/' },
    { redirect: `${receiver.url}/arrived` },
  ]);
  await t.ctx.services.webhooks.publish(id, { id: `evt_test_${crypto.randomUUID()}`, type: 'credential.issued', data: {} });
  const [delivery] = await until('the delivery gets past the refused redirects', async () => {
    const d = await deliveriesOf(by);
    return d[0]?.status === 'delivered' ? d : undefined;
  }).catch((err) => explain(by, err));
  assert.match(delivery!.tries[0]!.error!, /^address_not_allowed/);
  assert.match(delivery!.tries[1]!.error!, /^address_not_allowed/);
  assert.equal(delivery!.tries[2]!.status_code, 204);
  assert.equal(receiver.received.filter((r) => r.path === '/arrived').length, 1, 'a 307 to an allowed address keeps the signed body');
});

test('publish refuses malformed ids and types; an account without endpoints is a no-op; delete removes an endpoint', async () => {
  const { id, by } = await person();
  await assert.rejects(t.ctx.services.webhooks.publish(id, { id: 'has spaces', type: 'credential.issued', data: {} }), /event id/);
  await assert.rejects(t.ctx.services.webhooks.publish(id, { id: 'evt_1', type: 'Not A Type', data: {} }), /event type/);
  await t.ctx.services.webhooks.publish(id, { id: 'evt_none', type: 'credential.issued', data: {} });
  assert.deepEqual(await deliveriesOf(by), []);
  const added = await endpoint(by, '/gone');
  const other = await person();
  await assert.rejects(t.ctx.services.webhooks.remove(other.by, added.endpoint.id), (err: any) => err.code === 'not_found');
  await t.ctx.services.webhooks.remove(by, added.endpoint.id);
  assert.deepEqual((await t.ctx.services.webhooks.list(by)).endpoints, []);
});

test('Settings → Webhooks: the form adds an endpoint and shows its secret once; the page lists deliveries with every attempt', async () => {
  const { id, by } = await person();
  const email = (await t.ctx.services.accounts.get(id)).email;
  const browser = new Browser(t.app);
  browser.jar.set('ct_session', await signIn(t, email));
  const refused = await browser.submit('/account/webhooks', '/account/webhooks', { url: 'https://10.1.2.3/hook' });
  assert.equal(refused.status, 400);
  assert.match(refused.body, /private, loopback, link-local/);
  const added = await browser.submit('/account/webhooks', '/account/webhooks', { url: `${receiver.url}/page` });
  assert.equal(added.status, 201);
  const secret = /whsec_[A-Za-z0-9+/=]+/.exec(added.body)?.[0];
  assert.ok(secret);
  receiver.secrets.set('/page', secret);
  const later = await browser.request('GET', '/account/webhooks');
  assert.ok(!later.body.includes(secret), 'the secret is shown only once');
  assert.ok(later.body.includes(secret.slice(0, 12)), 'its prefix identifies it');
  receiver.script.set('/page', [{ status: 502 }]);
  await t.ctx.services.webhooks.publish(id, { id: `evt_test_${crypto.randomUUID()}`, type: 'credential.issued', data: {} });
  await until('delivered', async () => ((await deliveriesOf(by))[0]?.status === 'delivered' ? true : undefined));
  const page = await browser.request('GET', '/account/webhooks');
  assert.match(page.body, /HTTP 502/);
  assert.match(page.body, /HTTP 204/);
  const endpointId = (await t.ctx.services.webhooks.list(by)).endpoints[0]!.id;
  const deleted = await browser.submit('/account/webhooks', `/account/webhooks/${endpointId}/delete`, {});
  assert.equal(deleted.status, 303);
  assert.deepEqual((await t.ctx.services.webhooks.list(by)).endpoints, []);
});
