// A follow's alert settings, for the person asking (operations.ts binds these), and the
// unsubscribe link. Policy first: a personal follow is reachable only by its owner's personal
// credential, a team follow only by a member of that team acting for it; anything else is
// not_found (another team's follow is never confirmed to exist). Team follows: each member
// subscribes for themselves, so every read and change here is of the caller's own subscription.
import type { Actor } from '../../kernel/actor.ts';
import type { Clock } from '../../kernel/clock.ts';
import { AppError } from '../../kernel/errors.ts';
import type { FollowLookup, FollowRef } from '../team-data/index.ts';
import type { Delivery } from './deliver.ts';
import { alertEventId, type Detector } from './detect.ts';
import * as repo from './repo.ts';
import { type AlertSettingsIn, type AlertSettingsOut, type DeliveryOut, MAX_DELIVERIES_SHOWN } from './schema.ts';
import { newUnsubscribeKey, subscriptionOf, tokenMatches } from './token.ts';

export type Whose = 'me' | 'team';

export interface ServiceDeps {
  db: repo.Db;
  clock: Clock;
  baseUrl: string;
  follows: FollowLookup;
  detector: Detector;
  delivery: Delivery;
  eventStatuses(accountId: string, eventIds: readonly string[]): Promise<Map<string, string[]>>;
}

/** The follow, when it is the caller's own (personal) or their team's (team); else 404. */
function ownFollow(actor: Actor, whose: Whose, follow: FollowRef | null, id: string): FollowRef {
  const mine = whose === 'me' ? follow?.accountId === actor.account.id && !actor.team : !!actor.team && follow?.teamId === actor.team.id;
  if (!follow || !mine) throw new AppError('not_found', `No follow "${id}".`);
  return follow;
}

function presentDelivery(d: repo.DeliveryRow, baseUrl: string): DeliveryOut {
  return {
    id: d.id,
    channel: d.channel,
    frequency: d.frequency,
    status: d.status,
    attempts: d.attempts,
    error: d.last_error,
    items: d.items.map((i) => ({ key: i.key, title: i.title, url: `${baseUrl}${i.path}`, date: i.date })),
    createdAt: new Date(d.created_at).toISOString(),
    sentAt: d.sent_at ? new Date(d.sent_at).toISOString() : null,
  };
}

export function createAlertsService(deps: ServiceDeps) {
  const { db, clock, follows } = deps;

  async function view(follow: FollowRef, accountId: string): Promise<AlertSettingsOut> {
    const sub = await repo.findSubscription(db, follow.id, accountId);
    const [pending, deliveries] = await Promise.all([
      sub ? repo.countPending(db, sub.id) : 0,
      repo.listDeliveries(db, follow.id, accountId, MAX_DELIVERIES_SHOWN),
    ]);
    return {
      followId: follow.id,
      label: follow.label,
      email: sub?.email_frequency ? { frequency: sub.email_frequency } : null,
      webhook: sub?.webhook ?? false,
      pending,
      deliveries: await withWebhookStatus(
        accountId,
        follow.id,
        deliveries.map((d) => presentDelivery(d, deps.baseUrl)),
      ),
    };
  }

  /**
   * A webhook delivery's status is that of the webhooks module's deliveries of its events (one per
   * endpoint): sent once all are delivered, failed when one gave up, else queued.
   */
  async function withWebhookStatus(accountId: string, followId: string, list: DeliveryOut[]): Promise<DeliveryOut[]> {
    const hooks = list.filter((d) => d.channel === 'webhook');
    if (hooks.length === 0) return list;
    const statuses = await deps.eventStatuses(
      accountId,
      hooks.flatMap((d) => d.items.map((i) => alertEventId(followId, i.key))),
    );
    return list.map((d) => {
      if (d.channel !== 'webhook') return d;
      const all = d.items.flatMap((i) => statuses.get(alertEventId(followId, i.key)) ?? []);
      if (all.length === 0) return { ...d, status: 'failed', error: 'Your account had no webhook endpoints for these events (Settings → Webhooks).' };
      const status = all.includes('pending') ? 'queued' : all.includes('failed') ? 'failed' : 'sent';
      return { ...d, status, error: status === 'failed' ? 'An endpoint did not acknowledge an event after its retries (see Settings → Webhooks).' : null };
    });
  }

  async function resolve(actor: Actor, whose: Whose, id: string): Promise<FollowRef> {
    return ownFollow(actor, whose, await follows.find(id), id);
  }

  return {
    async get(actor: Actor, whose: Whose, input: { id: string }): Promise<AlertSettingsOut> {
      const follow = await resolve(actor, whose, input.id);
      return view(follow, actor.account.id);
    },
    async set(actor: Actor, whose: Whose, input: AlertSettingsIn): Promise<AlertSettingsOut> {
      const follow = await resolve(actor, whose, input.id);
      const accountId = actor.account.id;
      const webhook = input.webhook === true;
      if (!input.email && !webhook)
        throw new AppError('invalid_request', 'Choose at least one channel (email with a frequency, or webhook: true); to stop alerts, DELETE them.');
      const existing = await repo.findSubscription(db, follow.id, accountId);
      // The first active subscriber (re)starts the watch: what the follow has now is seen, not news.
      if (!existing?.email_frequency && !existing?.webhook && !(await repo.othersSubscribe(db, follow.id, accountId))) await deps.detector.baseline(follow);
      await repo.upsertSubscription(db, {
        id: `als_${crypto.randomUUID()}`,
        followId: follow.id,
        accountId,
        teamId: follow.teamId,
        emailFrequency: input.email?.frequency ?? null,
        webhook,
        unsubscribeKey: newUnsubscribeKey(),
        at: clock.now(),
      });
      // Email off (webhook only): nothing waits for a digest any more.
      if (!input.email && existing) await repo.clearPending(db, existing.id);
      // Items waiting for a digest go out now when the choice becomes "immediately".
      if (input.email?.frequency === 'immediate' && existing?.email_frequency && existing.email_frequency !== 'immediate') {
        const id = await deps.delivery.gather(existing.id, existing.email_frequency);
        if (id) await deps.delivery.dispatch([id]);
      }
      return view(follow, accountId);
    },
    async clear(actor: Actor, whose: Whose, input: { id: string }): Promise<{ id: string; deleted: true }> {
      const follow = await resolve(actor, whose, input.id);
      if (!(await repo.deleteSubscription(db, follow.id, actor.account.id))) throw new AppError('not_found', `No alerts are set on follow "${input.id}".`);
      return { id: follow.id, deleted: true };
    },
    /** What an unsubscribe link is for (its page); not_found for a token that is not valid. */
    async unsubscribeTarget(token: string): Promise<{ followLabel: string; emailOn: boolean }> {
      const { sub, follow } = await byToken(token);
      return { followLabel: follow.label, emailOn: sub.email_frequency !== null };
    },
    /** Turns email off for the token's subscription; doing it twice is fine. */
    async unsubscribe(token: string): Promise<{ followLabel: string }> {
      const { sub, follow } = await byToken(token);
      await repo.stopEmail(db, sub.id, clock.now());
      return { followLabel: follow.label };
    },
  };

  async function byToken(token: string) {
    const invalid = new AppError('not_found', 'This unsubscribe link is not valid (it may belong to alerts that were removed or set up again since).');
    const id = subscriptionOf(token);
    const sub = id ? await repo.findSubscriptionById(db, id) : undefined;
    if (!sub || !tokenMatches(token, sub)) throw invalid;
    const follow = await follows.find(sub.follow_id);
    if (!follow) throw invalid;
    return { sub, follow };
  }
}

export type AlertsService = ReturnType<typeof createAlertsService>;
