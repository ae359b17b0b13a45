// The sessions module's SQL: the only code touching signin_links and sessions.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db-schema.ts';

type Q = Kysely<DB>;

export async function insertLink(
  db: Q,
  row: { id: string; email: string; hash: Buffer; expires_at: Date; client_ip: string; created_at: Date },
): Promise<void> {
  await db.insertInto('signin_links').values(row).execute();
}

/** Links asked for since `since`, for this mailbox and from this client address: what the limits count. */
export async function countRecentLinks(db: Q, email: string, clientIp: string, since: Date) {
  const forEmail = sql`lower(email) = lower(${email})`;
  const fromClient = sql`client_ip = ${clientIp}`;
  const row = await db
    .selectFrom('signin_links')
    .select([
      sql<number>`count(*) filter (where ${forEmail})`.as('by_email'),
      sql<Date | null>`min(created_at) filter (where ${forEmail})`.as('oldest_by_email'),
      sql<number>`count(*) filter (where ${fromClient})`.as('by_client'),
      sql<Date | null>`min(created_at) filter (where ${fromClient})`.as('oldest_by_client'),
    ])
    .where('created_at', '>', since)
    .where(sql<boolean>`(${forEmail} or ${fromClient})`)
    .executeTakeFirstOrThrow();
  return {
    byEmail: { count: Number(row.by_email), oldest: row.oldest_by_email },
    byClient: { count: Number(row.by_client), oldest: row.oldest_by_client },
  };
}

export async function findOpenLink(db: Q, hash: Buffer, now: Date): Promise<{ email: string } | null> {
  const row = await db
    .selectFrom('signin_links')
    .select('email')
    .where('hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/** Marks the link used in one statement, so two concurrent uses cannot both succeed. */
export async function takeLink(db: Q, hash: Buffer, now: Date): Promise<{ email: string } | null> {
  const row = await db
    .updateTable('signin_links')
    .set({ used_at: now })
    .where('hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('email')
    .executeTakeFirst();
  return row ?? null;
}

/** Expired links the limits no longer count (asked for before `countedSince`) go. */
export async function deleteExpiredLinks(db: Q, now: Date, countedSince: Date): Promise<void> {
  await db.deleteFrom('signin_links').where('expires_at', '<=', now).where('created_at', '<=', countedSince).execute();
}

export async function insertSession(db: Q, row: { id: string; account_id: string; hash: Buffer; now: Date; expires_at: Date }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id: row.id, account_id: row.account_id, hash: row.hash, created_at: row.now, last_seen_at: row.now, expires_at: row.expires_at })
    .execute();
}

export async function findSession(db: Q, hash: Buffer, now: Date) {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.id', 's.account_id', 's.created_at', 's.last_seen_at', 's.expires_at', 'a.email', 'a.name'])
    .where('s.hash', '=', hash)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

export async function extendSession(db: Q, id: string, now: Date, expiresAt: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSessionByHash(db: Q, hash: Buffer): Promise<void> {
  await db.deleteFrom('sessions').where('hash', '=', hash).execute();
}

/** Ended sessions are of no use; each sign-in clears its own account's. */
export async function deleteExpiredSessionsOf(db: Q, accountId: string, now: Date): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).where('expires_at', '<=', now).execute();
}

export async function deleteSessionsOfAccount(db: Q, accountId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countSessionsOfAccount(db: Q, accountId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
