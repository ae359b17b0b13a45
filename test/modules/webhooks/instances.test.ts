// Webhook deliveries across the life of the service: a delivery retrying when the service stops
// is finished by the next start, an event filed while no queue runs (as the CLI files them) is
// delivered once one does, and two instances on one PostgreSQL database, both publishing the
// same events, deliver each exactly once per endpoint.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../../src/kernel/config.ts';
import { createContext } from '../../../src/context.ts';
import { accountActor } from '../../helpers/actors.ts';
import { freshDatabase } from '../../helpers/context.ts';
import { startService, until } from '../../helpers/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const env = { OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_SWEEP_SECONDS: '1', JOBS_STOP_GRACE_SECONDS: '1' };
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
});
after(() => receiver.close());

const event = (type = 'credential.issued') => ({ id: `evt_test_${crypto.randomUUID()}`, type, data: { n: Math.random() } });

test('a retrying delivery survives a restart, and an event filed with no queue running is delivered by the next start', async () => {
  const db = await freshDatabase();
  try {
    const first = await startService(db.env, env);
    const account = await first.ctx.services.accounts.create({ email: `restart-${crypto.randomUUID()}@example.org` });
    const by = accountActor(account.id);
    const path = `/restart-${account.id}`;
    receiver.secrets.set(path, (await first.ctx.services.webhooks.add(by, { url: `${receiver.url}${path}` })).secret);
    receiver.script.set(path, [{ status: 500 }]);
    const retried = event();
    await first.ctx.services.webhooks.publish(account.id, retried);
    await until(
      'the first attempt failed',
      async () => ((await first.ctx.services.webhooks.list(by)).deliveries[0]?.tries.length === 1 ? true : undefined),
      30,
    );
    await first.close();

    // What the CLI does: a context that runs no queue files an event.
    const offline = await createContext(loadConfig({ NODE_ENV: 'test', LOAD_SAMPLE: 'false', ...db.env, ...env }), { caches: false });
    const filed = event('credential.revoked');
    await offline.services.webhooks.publish(account.id, filed);
    await offline.close();

    const second = await startService(db.env, env);
    try {
      const deliveries = await until(
        'both are delivered after the restart',
        async () => {
          const d = (await second.ctx.services.webhooks.list(by)).deliveries;
          return d.length === 2 && d.every((x) => x.status === 'delivered') ? d : undefined;
        },
        60,
      );
      const byEvent = new Map(deliveries.map((d) => [d.event_id, d.tries.map((a) => a.status_code)]));
      assert.deepEqual(byEvent.get(retried.id), [500, 204]);
      assert.deepEqual(byEvent.get(filed.id), [204]);
      const got = receiver.received.filter((r) => r.path === path);
      assert.equal(got.filter((r) => r.id === filed.id).length, 1);
      assert.ok(got.every((r) => r.verified));
    } finally {
      await second.close();
    }
  } finally {
    await db.drop();
  }
});

test('two instances on one PostgreSQL database deliver each event once per endpoint', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only (set DATABASE_URL)',
}, async () => {
  const db = await freshDatabase();
  const one = await startService(db.env, env);
  const two = await startService(db.env, env);
  try {
    const account = await one.ctx.services.accounts.create({ email: `two-${crypto.randomUUID()}@example.org` });
    const by = accountActor(account.id);
    const paths = [`/two-a-${account.id}`, `/two-b-${account.id}`];
    for (const path of paths) receiver.secrets.set(path, (await one.ctx.services.webhooks.add(by, { url: `${receiver.url}${path}` })).secret);
    const events = Array.from({ length: 10 }, () => event());
    // Each event is published by both instances at once, as two writers of one change would.
    await Promise.all(events.flatMap((e) => [one.ctx.services.webhooks.publish(account.id, e), two.ctx.services.webhooks.publish(account.id, e)]));
    await until(
      'every delivery is done',
      async () => {
        const d = (await two.ctx.services.webhooks.list(by)).deliveries;
        return d.length === 20 && d.every((x) => x.status === 'delivered') ? true : undefined;
      },
      60,
    );
    // A sweep or two more on both instances sends nothing again.
    await new Promise((r) => setTimeout(r, 2500));
    for (const path of paths) {
      const got = receiver.received.filter((r) => r.path === path);
      assert.deepEqual(got.map((r) => r.id).sort(), events.map((e) => e.id).sort(), `${path}: each event exactly once`);
      assert.ok(got.every((r) => r.verified));
    }
  } finally {
    await one.close();
    await two.close();
    await db.drop();
  }
});
