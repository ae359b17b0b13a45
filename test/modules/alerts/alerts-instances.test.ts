// Once per change with several instances: on PostgreSQL two whole services share one database (and
// its job queue); the second runs the ingest, both look at the follows at the same moment as the
// ingest's own queued look, and the SMTP relay still receives one alert, the webhook receiver
// each change once. The relay refuses the
// first attempt (451, try later): the job queue retries it and the delivery records both attempts.
// On the embedded database (one process per data directory) the same runs on one instance.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { freshDatabase } from '../../helpers/context.ts';
import { startService, type TestService, until } from '../../helpers/service.ts';
import { FOLLOWED_MATTER, ingestOptions, startElms } from './helpers.ts';
import { accountActor } from '../../helpers/actors.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let elms: Awaited<ReturnType<typeof startElms>>;
let relay: SmtpReceiver;
let hooks: WebhookReceiver;
let instances: TestService[] = [];
let drop: () => Promise<void>;

before(async () => {
  [elms, relay, hooks] = await Promise.all([startElms(), startSmtpReceiver({ refuseFirst: 1 }), startWebhookReceiver()]);
  const database = await freshDatabase();
  drop = database.drop;
  const env = {
    SMTP_URL: relay.url,
    INGEST_BASE_URL_ELMS: elms.url,
    ALERT_RETRY_DELAY_SECONDS: '1',
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    WEBHOOK_SWEEP_SECONDS: '1',
    JOBS_STOP_GRACE_SECONDS: '1',
  };
  instances.push(await startService(database.env, env));
  if (onPostgres) instances.push(await startService(database.env, env));
});

after(async () => {
  for (const s of instances) await s.close();
  instances = [];
  await Promise.all([elms?.close(), relay?.close(), hooks?.close()]);
  await drop?.();
});

test(`one alert per change with ${onPostgres ? 'two instances on one PostgreSQL database' : 'one embedded instance'}, retried after the relay refused it`, async () => {
  const a = instances[0]!;
  const b = instances.at(-1)!;
  await a.ctx.services.ingest.run('elms', ingestOptions);
  const account = await a.ctx.services.accounts.create({ email: 'watcher@example.org' });
  const { key } = await a.ctx.services.credentials.keys.create({ accountId: account.id, name: 'alerts', scopes: ['me.follows.read', 'me.follows.write'] });
  const call = async (service: TestService, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as any;
  };
  const endpoint = await a.ctx.services.webhooks.add(accountActor(account.id), { url: `${hooks.url}/watcher` });
  hooks.secrets.set('/watcher', endpoint.secret);
  const follow = await call(a, 'POST', '/me/follows', { type: 'legislation', refId: FOLLOWED_MATTER });
  const set = await call(b, 'PUT', `/me/follows/${follow.id}/alerts`, { email: { frequency: 'immediate' }, webhook: true });
  assert.deepEqual([set.email, set.webhook], [{ frequency: 'immediate' }, true]);

  elms.changeRecord();
  // The ingest on B queues a look; meanwhile both instances look at once, twice over.
  const [report, ...looks] = await Promise.all([
    b.ctx.services.ingest.run('elms', ingestOptions),
    a.ctx.services.alerts.scan(),
    b.ctx.services.alerts.scan(),
    a.ctx.services.alerts.scan(),
    b.ctx.services.alerts.scan(),
  ]);
  assert.ok(report.changed > 0);
  await until('the alert was accepted by the relay', async () => (relay.messages.length >= 1 ? true : undefined));
  // Every look after the ingest finds nothing left to claim.
  const again = await Promise.all([a.ctx.services.alerts.scan(), b.ctx.services.alerts.scan()]);
  assert.equal(again[0].deliveries + again[1].deliveries, 0);
  // Polled in the database (polling the API would spend the account's per-minute requests).
  await until('the email delivery is recorded as sent', async () => {
    const rows = await a.ctx.db.selectFrom('alert_deliveries').select('status').where('follow_id', '=', follow.id).where('channel', '=', 'email').execute();
    return rows.length === 1 && rows[0]!.status === 'sent' ? true : undefined;
  });
  const shown = await call(a, 'GET', `/me/follows/${follow.id}/alerts`);
  assert.deepEqual(shown.deliveries.map((d: any) => d.channel).sort(), ['email', 'webhook']);
  assert.equal(relay.refused(), 1);
  assert.equal(relay.messages.length, 1, relay.messages.map((m) => m.subject).join(' | '));
  assert.match(relay.messages[0]!.subject, /SO2026-0025407.*\(2 changes\)/);
  const delivery = shown.deliveries.find((d: any) => d.channel === 'email');
  assert.equal(delivery.attempts, 2, 'the refused attempt and the one that went through');
  assert.equal(delivery.error, null);
  assert.equal(delivery.items.length, 2);
  // The webhook: the two changes, each once, signed; the webhook module holds two deliveries.
  const events = await until('both webhook events arrived', async () => (hooks.received.length >= 2 ? hooks.received : undefined));
  assert.equal(new Set(events.map((e) => e.id)).size, 2);
  assert.ok(events.every((e) => e.verified && JSON.parse(e.body).type === 'follow.changed'));
  assert.equal((await b.ctx.services.webhooks.list(accountActor(account.id))).deliveries.length, 2);
  // Whichever looks claimed them, the two changes were claimed once in all.
  const claimed = looks.reduce((n, l) => n + l.items, 0) + again.reduce((n, l) => n + l.items, 0);
  assert.ok(claimed <= 2);
});
