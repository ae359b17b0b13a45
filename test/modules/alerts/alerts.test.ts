// Alerts on follows through the whole service (startServer: HTTP, job queue, workers): follows and
// their alerts set over v2, then an eLMS ingest from recorded answers served locally that changes
// the followed records. A real SMTP receiver gets each immediate alert once, the daily digest
// gathers what waited, a local webhook receiver gets each change once as a signed
// `follow.changed` event, looking again (also twice at once) sends nothing more, every delivery
// shows on the follow's alerts, and the email's unsubscribe link works without signing in.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { digestKind } from '../../../src/modules/alerts/deliver.ts';
import { freshDatabase } from '../../helpers/context.ts';
import { startService, type TestService, until } from '../../helpers/service.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { FOLLOWED_MATTER, idsOf, ingestOptions, NEW_MATTER, SEARCH, startElms } from './helpers.ts';
import { accountActor } from '../../helpers/actors.ts';

let elms: Awaited<ReturnType<typeof startElms>>;
let smtp: SmtpReceiver;
let hooks: WebhookReceiver;
let service: TestService;
let drop: () => Promise<void>;
let key: string;
let accountId: string;
const follows: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown, credential = key) {
  const res = await fetch(`${service.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const mailsAbout = (label: string) => smtp.messages.filter((m) => m.subject.includes(label));

before(async () => {
  [elms, smtp, hooks] = await Promise.all([startElms(), startSmtpReceiver(), startWebhookReceiver()]);
  const database = await freshDatabase();
  drop = database.drop;
  service = await startService(database.env, {
    SMTP_URL: smtp.url,
    INGEST_BASE_URL_ELMS: elms.url,
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    WEBHOOK_SWEEP_SECONDS: '1',
    WEBHOOK_RETRY_DELAY_SECONDS: '1',
    JOBS_STOP_GRACE_SECONDS: '1',
  });
  await service.ctx.services.ingest.run('elms', ingestOptions);
  const account = await service.ctx.services.accounts.create({ email: 'resident@example.org' });
  accountId = account.id;
  key = (await service.ctx.services.credentials.keys.create({ accountId, name: 'alerts', scopes: ['me.follows.read', 'me.follows.write'] })).key;
  const added = await service.ctx.services.webhooks.add(accountActor(accountId), { url: `${hooks.url}/alerts` });
  hooks.secrets.set('/alerts', added.secret);
});

after(async () => {
  await service?.close();
  await Promise.all([elms?.close(), smtp?.close(), hooks?.close()]);
  await drop?.();
});

test('alerts are set on personal follows over v2; nothing already in the record is announced', async () => {
  const { personId, bodyId } = await idsOf(service.ctx.db);
  const made = {
    matter: { type: 'legislation', refId: FOLLOWED_MATTER },
    person: { type: 'person', refId: personId },
    committee: { type: 'body', refId: bodyId },
    search: { type: 'search', refId: SEARCH, label: 'Foundry Park deals' },
  };
  for (const [name, body] of Object.entries(made)) {
    const created = await api('POST', '/me/follows', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    follows[name] = created.body.id;
  }
  const none = await api('GET', `/me/follows/${follows.matter}/alerts`);
  assert.equal(none.status, 200);
  assert.deepEqual({ email: none.body.email, webhook: none.body.webhook, deliveries: none.body.deliveries }, { email: null, webhook: false, deliveries: [] });

  const set = await api('PUT', `/me/follows/${follows.matter}/alerts`, { email: { frequency: 'immediate' }, webhook: true });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.deepEqual(set.body.email, { frequency: 'immediate' });
  assert.equal(set.body.webhook, true);
  assert.equal((await api('PUT', `/me/follows/${follows.person}/alerts`, { email: { frequency: 'daily' } })).status, 200);
  assert.equal((await api('PUT', `/me/follows/${follows.committee}/alerts`, { email: { frequency: 'immediate' } })).status, 200);
  assert.equal((await api('PUT', `/me/follows/${follows.search}/alerts`, { email: { frequency: 'immediate' } })).status, 200);

  // Looking now finds nothing: what the follows had when alerts were set is not news.
  const look = await service.ctx.services.alerts.scan();
  assert.deepEqual(look, { follows: 4, items: 0, deliveries: 0 });
  assert.equal(smtp.messages.length, 0);
});

test('an ingest that changes the followed records sends each alert once, by email and as a signed webhook', async () => {
  elms.changeRecord();
  // The ingest's finished hook queues the look; the workers send what it finds.
  const report = await service.ctx.services.ingest.run('elms', ingestOptions);
  assert.ok(report.changed > 0);
  await until('three immediate alerts arrived', async () => (smtp.messages.length >= 3 ? true : undefined));

  const [matterMail] = mailsAbout(FOLLOWED_MATTER);
  assert.ok(matterMail, smtp.messages.map((m) => m.subject).join(' | '));
  assert.deepEqual(matterMail.to, ['resident@example.org']);
  assert.match(matterMail.subject, /^Alert: SO2026-0025407: .* \(2 changes\)$/);
  assert.match(matterMail.text, /SO2026-0025407: Passed \(City Council\)/);
  assert.match(matterMail.text, /roll call on "Passed"/);
  assert.match(matterMail.text, /http:\/\/council\.test\/roll-calls\//);
  assert.ok(matterMail.text.includes(`Change this alert through the API: PUT http://council.test/api/v2/me/follows/${follows.matter}/alerts`));
  // RFC 8058: the https (here the configured base URL's) unsubscribe URI, and the one-click marker.
  const head = matterMail.raw.slice(0, matterMail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  assert.match(head, /^List-Unsubscribe: <http:\/\/council\.test\/alerts\/unsubscribe\/als_[^>]+>\r?$/m);
  assert.match(head, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

  const committeeMail = smtp.messages.find((m) => m.subject.includes('Committee on Zoning'));
  assert.ok(committeeMail);
  assert.match(committeeMail.subject, /\(1 change\)$/);
  assert.match(committeeMail.text, /Committee on Zoning, Landmarks and Building Standards meeting (held|scheduled) for 2023-09-12/);
  const searchMail = mailsAbout('Foundry Park deals');
  assert.equal(searchMail.length, 1);
  assert.match(searchMail[0]!.text, new RegExp(`New match: ${NEW_MATTER}`));

  // The webhook: each of the matter's two changes once, signed (the receiver verifies with the
  // Standard Webhooks library and by hand), as a follow.changed event.
  const events = await until('both webhook events arrived', async () => (hooks.received.length >= 2 ? hooks.received : undefined));
  assert.equal(events.length, 2);
  for (const e of events) {
    assert.equal(e.verified, true);
    const body = JSON.parse(e.body);
    assert.equal(body.type, 'follow.changed');
    assert.equal(body.data.follow.id, follows.matter);
    assert.match(body.data.change.key, /^(action|roll_call):/);
  }
  assert.notEqual(events[0]!.id, events[1]!.id);

  // The person votes in the new roll call: waiting for the daily digest, not sent yet.
  const person = await api('GET', `/me/follows/${follows.person}/alerts`);
  assert.ok(person.body.pending >= 1, JSON.stringify(person.body));
  assert.equal(person.body.deliveries.length, 0);
});

test('looking again — the same ingest again, and two looks at once — sends nothing more', async () => {
  await service.ctx.services.ingest.run('elms', ingestOptions);
  const [a, b] = await Promise.all([service.ctx.services.alerts.scan(), service.ctx.services.alerts.scan()]);
  assert.equal(a.deliveries + b.deliveries, 0);
  assert.equal(a.items + b.items, 0);
  assert.equal(smtp.messages.length, 3);
  // The webhook module keeps one delivery per endpoint and event: still the two.
  const { deliveries } = await service.ctx.services.webhooks.list(accountActor(accountId));
  assert.equal(deliveries.length, 2);
});

test("each delivery shows on the follow's alerts: what was sent, when, and its status", async () => {
  // Waited for through the services (polling the API would spend the per-minute requests).
  await until('the webhook events are delivered', async () => {
    const { deliveries } = await service.ctx.services.webhooks.list(accountActor(accountId));
    return deliveries.length === 2 && deliveries.every((d) => d.status === 'delivered') ? true : undefined;
  });
  await until('the email is recorded as sent', async () => {
    const row = await service.ctx.db
      .selectFrom('alert_deliveries')
      .select('status')
      .where('follow_id', '=', follows.matter!)
      .where('channel', '=', 'email')
      .executeTakeFirst();
    return row?.status === 'sent' ? true : undefined;
  });
  const shown = (await api('GET', `/me/follows/${follows.matter}/alerts`)).body;
  assert.equal(shown.deliveries.length, 2);
  assert.ok(
    shown.deliveries.every((d: any) => d.status === 'sent'),
    JSON.stringify(shown.deliveries),
  );
  const email = shown.deliveries.find((d: any) => d.channel === 'email');
  const webhook = shown.deliveries.find((d: any) => d.channel === 'webhook');
  assert.equal(email.frequency, 'immediate');
  assert.equal(email.attempts, 1);
  assert.equal(email.error, null);
  assert.ok(Date.parse(email.sentAt) >= Date.parse(email.createdAt));
  assert.deepEqual(email.items.map((i: any) => i.key.split(':')[0]).sort(), ['action', 'roll_call']);
  assert.match(email.items[0].url, /^http:\/\/council\.test\//);
  assert.deepEqual(webhook.items.map((i: any) => i.key).sort(), email.items.map((i: any) => i.key).sort());
});

test('the daily digest gathers what waited into one email, once; the digests are on the schedule', async () => {
  const scheduled = await service.ctx.jobs.scheduled(digestKind);
  assert.deepEqual(scheduled.sort(), ['daily', 'weekly']);
  // Weekly finds no subscription of its own to send.
  assert.deepEqual(await service.ctx.services.alerts.digest('weekly'), { deliveries: 0 });
  assert.deepEqual(await service.ctx.services.alerts.digest('daily'), { deliveries: 1 });
  assert.deepEqual(await service.ctx.services.alerts.digest('daily'), { deliveries: 0 });
  const digest = await until('the digest arrived', async () => smtp.messages.find((m) => m.subject.startsWith('Your daily alert:')));
  assert.match(digest.text, /Voted (Yea|Nay) on SO2026-0025407/);
  const person = await api('GET', `/me/follows/${follows.person}/alerts`);
  assert.equal(person.body.pending, 0);
  assert.equal(person.body.deliveries[0].frequency, 'daily');
  assert.equal(smtp.messages.filter((m) => m.subject.startsWith('Your daily alert:')).length, 1);
});

test('a delivery queued but never handed to the queue (the process stopped) is sent by the next look, once', async () => {
  const db = service.ctx.db;
  const sub = await db.selectFrom('alert_subscriptions').select('id').where('follow_id', '=', follows.committee!).executeTakeFirstOrThrow();
  const id = crypto.randomUUID();
  // What detection leaves behind when the process stops between its commit and sending the job.
  await db
    .insertInto('alert_deliveries')
    .values({
      id,
      subscription_id: sub.id,
      follow_id: follows.committee!,
      account_id: accountId,
      channel: 'email',
      frequency: 'immediate',
      items: JSON.stringify([{ key: 'meeting:recovered:held', title: 'Recovered change', path: '/meetings/recovered', date: null }]),
      status: 'queued',
      created_at: new Date(Date.now() - 10 * 60_000),
    })
    .execute();
  // Two looks hand it over twice: the delivery id is the job id, so one job, one email.
  await service.ctx.services.alerts.scan();
  await service.ctx.services.alerts.scan();
  await until('the recovered delivery is sent', async () => {
    const row = await db.selectFrom('alert_deliveries').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    return row.status === 'sent' ? true : undefined;
  });
  await service.ctx.services.alerts.scan();
  assert.equal(smtp.messages.filter((m) => m.text.includes('Recovered change')).length, 1);
});

test('the unsubscribe link works without signing in: GET only asks, POST (one-click) stops the email', async () => {
  const mail = mailsAbout(FOLLOWED_MATTER)[0]!;
  const link = /http:\/\/council\.test(\/alerts\/unsubscribe\/\S+)/.exec(mail.text)![1]!;
  const page = await fetch(`${service.url}${link}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /Stop the alert emails about <strong>SO2026-0025407/);
  assert.match(html, /<form method="post" action="\/alerts\/unsubscribe\//);
  // A mail scanner opening the link changed nothing.
  assert.deepEqual((await api('GET', `/me/follows/${follows.matter}/alerts`)).body.email, { frequency: 'immediate' });

  // RFC 8058 §3.2: the mail client's POST, without cookies.
  const done = await fetch(`${service.url}${link}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(done.status, 200);
  assert.match(await done.text(), /no more alert emails about SO2026-0025407/);
  const after = (await api('GET', `/me/follows/${follows.matter}/alerts`)).body;
  assert.equal(after.email, null);
  assert.equal(after.webhook, true, 'the webhook channel stays as it was');
  // Again: still fine, and the page says so.
  assert.equal(
    (await fetch(`${service.url}${link}`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' })).status,
    200,
  );
  assert.match(await (await fetch(`${service.url}${link}`)).text(), /already get no alert emails/);

  // A token altered in one character, or of another shape, is a 404 page and changes nothing.
  const altered = link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A');
  for (const bad of [altered, '/alerts/unsubscribe/nonsense', `/alerts/unsubscribe/${'x'.repeat(300)}`]) {
    const res = await fetch(`${service.url}${bad}`, { method: 'POST' });
    assert.ok(res.status === 404 || res.status === 400, `${bad}: ${res.status}`);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  }
});
