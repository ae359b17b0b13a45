// The sessions module's SQL: the only code touching signin_links and sessions.
import type { Kysely } from 'kysely';
import type { DB } from '../../db-schema.ts';

type Q = Kysely<DB>;

export async function insertLink(db: Q, row: { id: string; email: string; hash: Buffer; expires_at: Date }): Promise<void> {
  await db.insertInto('signin_links').values(row).execute();
}

/** Links for an address still open at `now`: requests beyond a few are refused (mail bombing). */
export async function countOpenLinks(db: Q, email: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('signin_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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

export async function deleteExpiredLinks(db: Q, now: Date): Promise<void> {
  await db.deleteFrom('signin_links').where('expires_at', '<=', now).execute();
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
