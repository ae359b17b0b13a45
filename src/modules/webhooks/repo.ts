// SQL of the webhooks module: endpoints, deliveries (one per endpoint and event) and attempts.
import type { Kysely } from 'kysely';
import type { DB } from '../../db-schema.ts';

type Q = Kysely<DB>;

export function insertEndpoint(db: Q, row: { id: string; account_id: string; url: string; secret: string }) {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function listEndpoints(db: Q, accountId: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function countEndpoints(db: Q, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes one of the account's endpoints (its deliveries and attempts go with it); false when there is none. */
export async function deleteEndpoint(db: Q, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * One delivery per endpoint of the account for this event; an event published twice (or by two
 * instances) adds nothing the second time. Returns the ids of the deliveries this call added.
 */
export async function insertDeliveries(db: Q, accountId: string, event: { id: string; type: string }, payload: string): Promise<string[]> {
  const endpoints = await db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', accountId).execute();
  if (endpoints.length === 0) return [];
  const rows = endpoints.map((e) => ({ id: `whd_${crypto.randomUUID()}`, endpoint_id: e.id, event_id: event.id, event_type: event.type, payload }));
  const added = await db
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .returning('id')
    .execute();
  return added.map((r) => r.id);
}

export function findDelivery(db: Q, id: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.event_id', 'd.event_type', 'd.payload', 'd.status', 'd.attempts', 'e.url', 'e.secret'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Counts an attempt as started, only while the delivery is pending; returns its number, or null. */
export async function startAttempt(db: Q, id: string, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_attempt_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning('attempts')
    .executeTakeFirst();
  return row ? row.attempts : null;
}

export async function recordAttempt(
  db: Q,
  row: { delivery_id: string; attempt: number; at: Date; status_code: number | null; error: string | null },
  finished: 'delivered' | 'failed' | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values(row)
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    if (finished) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: finished, finished_at: row.at })
        .where('id', '=', row.delivery_id)
        .where('status', '=', 'pending')
        .execute();
    }
  });
}

/** Pending deliveries with attempts left, oldest first: the sweep hands them to the queue. */
export function pendingDeliveries(db: Q, maxAttempts: number, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('attempts', '<', maxAttempts)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Fails pending deliveries that used their last attempt and are not in the middle of one: the
 * last attempt is recorded, or it started longer ago than any attempt may take (its worker died).
 */
export async function failExhausted(db: Q, maxAttempts: number, now: Date, attemptMs: number): Promise<void> {
  const stale = new Date(now.getTime() - attemptMs);
  await db
    .updateTable('webhook_deliveries as d')
    .set({ status: 'failed', finished_at: now })
    .where('d.status', '=', 'pending')
    .where('d.attempts', '>=', maxAttempts)
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('webhook_attempts as a').select('a.attempt').whereRef('a.delivery_id', '=', 'd.id').whereRef('a.attempt', '=', 'd.attempts')),
        eb('d.last_attempt_at', '<', stale),
      ]),
    )
    .execute();
}

/** Ends one delivery as failed (a job that found no attempt left). */
export async function failDelivery(db: Q, id: string, now: Date): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'failed', finished_at: now }).where('id', '=', id).where('status', '=', 'pending').execute();
}

/** The latest deliveries of the account's endpoints, each with its attempts (the Webhooks page). */
export async function recentDeliveries(db: Q, accountId: string, limit: number) {
  const deliveries = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.endpoint_id', 'd.event_id', 'd.event_type', 'd.status', 'd.attempts', 'd.created_at', 'd.finished_at'])
    .where('e.account_id', '=', accountId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('attempt')
    .execute();
  return deliveries.map((d) => ({ ...d, tries: attempts.filter((a) => a.delivery_id === d.id) }));
}

/** The statuses of the account's deliveries of these events (one per endpoint), for the modules that published them. */
export async function eventStatuses(db: Q, accountId: string, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.event_id', 'd.status'])
    .where('e.account_id', '=', accountId)
    .where('d.event_id', 'in', [...eventIds])
    .execute();
}
