// The database lost right after an alert went out: the service reaches PostgreSQL through a TCP
// relay that the test cuts at the moment the SMTP relay accepts the email, and again as the webhook
// endpoint acknowledges each event, and restores 3 s after each cut. Recording the delivery fails
// meanwhile; the job waits for the database instead of failing (a failed job runs again and would
// send the email or the event twice), so the person gets one email and each event once, each
// delivery shows one attempt, and the email carries the delivery's own Message-ID. An outage longer
// than the job waits sends the email again, once, soon after the database returns (the job's
// heartbeat), where it used to wait for the job's 15-minute expiry. Needs DATABASE_URL (CI runs
// the suite once with it).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { alertMessageId } from '../../src/modules/alerts/mail-text.ts';
import { freshDatabase } from '../helpers/context.ts';
import { startService, type TestService, until } from '../helpers/service.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../helpers/smtp.ts';
import { type TcpRelay, tcpRelay } from '../helpers/tcp-relay.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { accountActor } from '../helpers/actors.ts';
import { FOLLOWED_MATTER, ingestOptions, startElms } from '../modules/alerts/helpers.ts';

const skip = !process.env.DATABASE_URL && 'needs DATABASE_URL';
/** How long the next cut lasts: a brief outage, or (below) one longer than the job waits. */
let outageMs = 3000;

let elms: Awaited<ReturnType<typeof startElms>>;
let mail: SmtpReceiver;
let hooks: WebhookReceiver;
let link: TcpRelay;
let service: TestService;
let drop: () => Promise<void>;
let cuts = 0;

/** The database goes away between the effect (accepted, acknowledged) and the service hearing of it. */
function cutNow(): void {
  cuts++;
  link.cut();
  setTimeout(() => link.restore(), outageMs).unref();
}

before(async () => {
  if (skip) return;
  const database = await freshDatabase();
  drop = database.drop;
  link = tcpRelay(new URL(database.env.DATABASE_URL!));
  elms = await startElms();
  mail = await startSmtpReceiver({ onAccept: cutNow });
  hooks = await startWebhookReceiver({ onReceive: cutNow });
  service = await startService(
    { DATABASE_URL: await link.via(database.env.DATABASE_URL!) },
    {
      SMTP_URL: mail.url,
      INGEST_BASE_URL_ELMS: elms.url,
      ALERT_RETRY_DELAY_SECONDS: '1',
      JOBS_STOP_GRACE_SECONDS: '1',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      WEBHOOK_SWEEP_SECONDS: '1',
    },
  );
});

after(async () => {
  if (skip) return;
  link?.restore();
  await service?.close();
  await Promise.all([elms?.close(), mail?.close(), hooks?.close()]);
  link?.server.close();
  await drop?.();
});

test('an alert accepted by the relay while the database is lost is recorded once it returns, and sent once', { skip }, async () => {
  const { ctx } = service;
  await ctx.services.ingest.run('elms', ingestOptions);
  const account = await ctx.services.accounts.create({ email: 'outage-watcher@example.org' });
  const { key } = await ctx.services.credentials.keys.create({ accountId: account.id, name: 'alerts', scopes: ['me.follows.read', 'me.follows.write'] });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as any;
  };
  const follow = await call('POST', '/me/follows', { type: 'legislation', refId: FOLLOWED_MATTER });
  await call('PUT', `/me/follows/${follow.id}/alerts`, { email: { frequency: 'immediate' } });

  elms.changeRecord();
  await ctx.services.ingest.run('elms', ingestOptions);
  await ctx.services.alerts.scan();
  await until('the relay accepted the alert', async () => (mail.messages.length >= 1 ? true : undefined));
  const delivery = await until(
    'the delivery is recorded as sent',
    async () => {
      try {
        const rows = await ctx.db
          .selectFrom('alert_deliveries')
          .select(['id', 'status', 'attempts', 'last_error'])
          .where('follow_id', '=', follow.id)
          .execute();
        return rows.length === 1 && rows[0]!.status === 'sent' ? rows[0] : undefined;
      } catch {
        return undefined; // the database is still out
      }
    },
    90,
  );
  assert.equal(delivery.attempts, 1);
  assert.equal(delivery.last_error, null);
  // The job ends as completed: nothing runs it again to send a second email.
  await until('the email job completed', async () => {
    const { rows } = await sql<{ state: string }>`select state from pgboss.job where name = 'alerts.email' and id::text = ${delivery.id}`.execute(ctx.db);
    return rows[0]?.state === 'completed' ? true : undefined;
  });
  assert.equal(mail.messages.length, 1, mail.messages.map((m) => m.subject).join(' | '));
  assert.equal(mail.messages[0]!.messageId, alertMessageId(delivery.id, 'http://council.test'));
  assert.match(mail.messages[0]!.messageId, /^<alert\.[0-9a-f-]{36}@council\.test>$/);
  assert.equal(cuts, 1, 'the database was cut once, as the email was accepted');
});

test('a webhook event acknowledged while the database is lost is recorded once it returns, and sent once', { skip }, async () => {
  const { ctx } = service;
  const account = await ctx.services.accounts.create({ email: 'outage-hooks@example.org' });
  const { endpoint, secret } = await ctx.services.webhooks.add(accountActor(account.id), { url: `${hooks.url}/outage` });
  hooks.secrets.set('/outage', secret);
  const before = cuts;
  await ctx.services.webhooks.publish(account.id, { id: 'evt_outage', type: 'test.outage', data: { about: 'an outage' } });
  const rows = await until(
    'the event is recorded as delivered',
    async () => {
      try {
        const found = await ctx.db.selectFrom('webhook_deliveries').select(['event_id', 'status', 'attempts']).where('endpoint_id', '=', endpoint.id).execute();
        return found.length === 1 && found[0]!.status === 'delivered' ? found : undefined;
      } catch {
        return undefined; // the database is still out
      }
    },
    90,
  );
  assert.equal(rows[0]!.attempts, 1);
  // Longer than a retry's delay and a sweep: nothing goes again.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const received = hooks.received.filter((h) => h.path === '/outage');
  assert.deepEqual(
    received.map((h) => [h.id, h.verified]),
    [['evt_outage', true]],
  );
  assert.equal(cuts, before + 1, 'the database was cut as the event was acknowledged');
});

test('an alert whose sending could not be recorded for longer than the job waits is sent again, once, with the same Message-ID, soon after the database returns', {
  skip,
}, async () => {
  const { ctx } = service;
  // A delivery like the first, queued a while ago: the next scan sends its job.
  const first = await ctx.db.selectFrom('alert_deliveries').selectAll().executeTakeFirstOrThrow();
  const id = crypto.randomUUID();
  await ctx.db
    .insertInto('alert_deliveries')
    .values({
      id,
      subscription_id: first.subscription_id,
      follow_id: first.follow_id,
      account_id: first.account_id,
      channel: 'email',
      frequency: first.frequency,
      items: JSON.stringify(first.items),
      status: 'queued',
      created_at: new Date(Date.now() - 600_000),
    })
    .execute();
  // Longer than the after-effect's wait (about 30 s): the job fails while the database is out, so
  // pg-boss cannot record its end either, and the job stays active with no one running it.
  outageMs = 40_000;
  const before = cuts;
  await ctx.services.alerts.scan();
  const messageId = alertMessageId(id, 'http://council.test');
  const sent = () => mail.messages.filter((m) => m.messageId === messageId);
  await until('the relay accepted the alert', async () => (sent().length >= 1 ? true : undefined));
  outageMs = 3000;
  // Its heartbeat stops, so it runs again within a minute or two of the database's return, not at
  // its expiry (15 minutes); the rerun finds the delivery still queued and sends it again.
  const delivery = await until(
    'the delivery is recorded as sent',
    async () => {
      try {
        const row = await ctx.db.selectFrom('alert_deliveries').select(['status', 'attempts']).where('id', '=', id).executeTakeFirst();
        return row?.status === 'sent' ? row : undefined;
      } catch {
        return undefined; // the database is still out
      }
    },
    240,
  );
  assert.equal(delivery.attempts, 1, 'only the attempt recorded after the return counts');
  await until('the email job completed', async () => {
    const { rows } = await sql<{ state: string }>`select state from pgboss.job where name = 'alerts.email' and id::text = ${id}`.execute(ctx.db);
    return rows[0]?.state === 'completed' ? true : undefined;
  });
  // At least once: sent twice, each the same message a receiver can tell as a copy.
  assert.equal(sent().length, 2);
  assert.equal(cuts, before + 2, 'the first sending was cut off for 40 s, the second briefly');
});
