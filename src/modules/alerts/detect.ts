// Finding what changed on watched follows, and queueing its deliveries. For each follow someone
// subscribes to, the public record's items (public-data's change feed) are claimed in alert_seen:
// the keys the insert returns are the new ones, and in the same transaction each subscription
// gets them — a queued email delivery (immediate) or waiting digest items (daily, weekly). Two
// instances looking at once cannot both claim a key (the primary key makes the second insert
// wait for the first and then skip it), so each change reaches each subscriber once.
// Jobs are sent after the commit with the delivery's id as the job's id; a delivery whose job was
// never sent (the process stopped in between) is sent again by the next look (`resend`).
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../kernel/clock.ts';
import type { ChangeFeed, ChangeItem } from '../public-data/index.ts';
import type { FollowLookup, FollowRef } from '../team-data/index.ts';
import * as repo from './repo.ts';
import type { StoredItem } from './tables.ts';

export interface Detector {
  /** Looks at every watched follow once; how many new items were found and deliveries queued. */
  scan(): Promise<{ follows: number; items: number; deliveries: string[] }>;
  /** Starts watching a follow from now: what is there now is seen, never announced. */
  baseline(follow: FollowRef): Promise<void>;
}

export const toStored = (i: ChangeItem): StoredItem => ({ key: i.key, title: i.title, path: i.path, date: i.date });

/** The webhook event id of one change of one follow: the same however often it is published. */
export function alertEventId(followId: string, itemKey: string): string {
  return `fc_${createHash('sha256').update(`${followId}\n${itemKey}`).digest('hex').slice(0, 48)}`;
}

/** Publishes a webhook event to an account's endpoints, inside the caller's transaction (modules/webhooks). */
export type PublishEvent = (accountId: string, event: { id: string; type: string; data: unknown }, options: { within: repo.Db }) => Promise<void>;

export function createDetector(deps: {
  db: repo.Db;
  clock: Clock;
  log: FastifyBaseLogger;
  feed: ChangeFeed;
  follows: FollowLookup;
  publish: PublishEvent;
  baseUrl: string;
}): Detector {
  const { db, clock, feed, follows } = deps;

  /** The `follow.changed` events of these items, to the subscriber's webhook endpoints. */
  async function publishAll(trx: repo.Db, accountId: string, follow: FollowRef, items: readonly StoredItem[]): Promise<void> {
    const about = { id: follow.id, type: follow.type, refId: follow.refId, label: follow.label, teamId: follow.teamId };
    for (const item of items) {
      const data = { follow: about, change: { key: item.key, title: item.title, url: `${deps.baseUrl}${item.path}`, date: item.date } };
      await deps.publish(accountId, { id: alertEventId(follow.id, item.key), type: 'follow.changed', data }, { within: trx });
    }
  }

  async function scanFollow(follow: FollowRef, since: Date): Promise<{ items: number; deliveries: string[] }> {
    const items = await feed.itemsFor(follow.type, follow.refId, since);
    if (items.length === 0) return { items: 0, deliveries: [] };
    return db.transaction().execute(async (trx) => {
      const fresh = await repo.claim(
        trx,
        follow.id,
        items.map((i) => i.key),
      );
      if (fresh.size === 0) return { items: 0, deliveries: [] };
      const found = items.filter((i) => fresh.has(i.key)).map(toStored);
      const at = clock.now();
      const deliveries: string[] = [];
      for (const sub of await repo.activeSubscriptions(trx, follow.id)) {
        if (sub.email_frequency === 'immediate') {
          const id = crypto.randomUUID();
          await repo.insertDelivery(trx, {
            id,
            subscriptionId: sub.id,
            followId: follow.id,
            accountId: sub.account_id,
            channel: 'email',
            frequency: 'immediate',
            items: found,
            at,
          });
          deliveries.push(id);
        } else if (sub.email_frequency) {
          await repo.addPending(trx, sub.id, found, at);
        }
        if (sub.webhook) {
          await publishAll(trx, sub.account_id, follow, found);
          await repo.insertDelivery(trx, {
            id: crypto.randomUUID(),
            subscriptionId: sub.id,
            followId: follow.id,
            accountId: sub.account_id,
            channel: 'webhook',
            frequency: null,
            items: found,
            at,
          });
        }
      }
      return { items: found.length, deliveries };
    });
  }

  return {
    async scan() {
      const watched = await repo.watchedFollows(db);
      const found = new Map((await follows.byIds(watched.map((w) => w.followId))).map((f) => [f.id, f]));
      let items = 0;
      const deliveries: string[] = [];
      for (const w of watched) {
        const follow = found.get(w.followId);
        if (!follow) continue;
        try {
          const r = await scanFollow(follow, w.since);
          items += r.items;
          deliveries.push(...r.deliveries);
        } catch (err) {
          // One follow's failure must not hold up the others; it is looked at again next time.
          deps.log.warn({ err, followId: follow.id }, 'alerts: could not look at a follow');
        }
      }
      return { follows: watched.length, items, deliveries };
    },
    async baseline(follow) {
      const since = await repo.watchFrom(db, follow.id);
      const items = await feed.itemsFor(follow.type, follow.refId, since);
      await repo.claim(
        db,
        follow.id,
        items.map((i) => i.key),
      );
    },
  };
}
