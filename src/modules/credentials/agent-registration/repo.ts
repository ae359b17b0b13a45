// SQL of agent_registrations (migration 0102). State changes are conditional updates, so two
// clicks, two claims or two instances cannot both move a registration on.
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../../../db-schema.ts';

type Q = Kysely<DB>;

export type NewRegistration = Insertable<DB['agent_registrations']>;

export async function insert(db: Q, row: NewRegistration): Promise<void> {
  await db.insertInto('agent_registrations').values(row).execute();
}

/** Registrations made since `since` for this address (any case) and from this client address, with the oldest of each. */
export async function countRecent(db: Q, email: string, clientIp: string, since: Date) {
  const row = await db
    .selectFrom('agent_registrations')
    .select([
      sql<number>`count(*) filter (where lower(email) = lower(${email}))`.as('by_email'),
      sql<Date | null>`min(created_at) filter (where lower(email) = lower(${email}))`.as('oldest_by_email'),
      sql<number>`count(*) filter (where client_ip = ${clientIp})`.as('by_client'),
      sql<Date | null>`min(created_at) filter (where client_ip = ${clientIp})`.as('oldest_by_client'),
    ])
    .where('created_at', '>', since)
    .where((eb) => eb.or([eb(sql`lower(email)`, '=', sql`lower(${email})`), eb('client_ip', '=', clientIp)]))
    .executeTakeFirst();
  return {
    byEmail: { count: Number(row?.by_email ?? 0), oldest: row?.oldest_by_email ?? null },
    byClient: { count: Number(row?.by_client ?? 0), oldest: row?.oldest_by_client ?? null },
  };
}

export function findById(db: Q, id: string) {
  return db.selectFrom('agent_registrations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByApproveHash(db: Q, hash: Buffer) {
  return db.selectFrom('agent_registrations').selectAll().where('approve_hash', '=', hash).executeTakeFirst();
}

/** pending → approved or denied, only while pending and unexpired. */
export async function decide(db: Q, id: string, to: 'approved' | 'denied', accountId: string | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('agent_registrations')
    .set({ status: to, account_id: accountId, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a poll; `interval` is the interval the client must keep from now on. */
export async function polled(db: Q, id: string, now: Date, interval: number): Promise<void> {
  await db.updateTable('agent_registrations').set({ last_polled_at: now, interval_seconds: interval }).where('id', '=', id).execute();
}

/** approved → claimed, once: the one caller that gets true issues the key. */
export async function claim(db: Q, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('agent_registrations')
    .set({ status: 'claimed', claimed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setKey(db: Q, id: string, keyId: string): Promise<void> {
  await db.updateTable('agent_registrations').set({ key_id: keyId }).where('id', '=', id).execute();
}
