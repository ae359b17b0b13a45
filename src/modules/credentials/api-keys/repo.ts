// SQL of the api_keys table. Reads join accounts, teams and memberships (owned by the accounts
// module) because the credential check must build the caller in one query on every request.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db-schema.ts';
import { asyncCommit } from '../../../kernel/db.ts';
import type { Role } from '../../../kernel/actor.ts';

type Q = Kysely<DB>;

export interface NewKeyRow {
  id: string;
  account_id: string;
  team_id: string | null;
  name: string;
  kind: 'scoped' | 'registration' | 'legacy';
  prefix: string;
  hash: Buffer;
  scopes: string[] | null;
  allowed_ips: string[];
  expires_at: Date | null;
}

export async function insertKey(db: Q, row: NewKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** What the credential check reads: the key, its creator, its team and the creator's membership. */
export interface VerifyRow {
  id: string;
  name: string;
  kind: 'scoped' | 'registration' | 'legacy';
  scopes: string[] | null;
  allowed_ips: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  team_id: string | null;
  account_id: string;
  email: string;
  account_name: string | null;
  a_per_day: number | null;
  a_per_minute: number | null;
  a_ai_per_day: number | null;
  team_name: string | null;
  features: string[] | null;
  t_per_day: number | null;
  t_per_minute: number | null;
  t_ai_per_day: number | null;
  role: Role | null;
}

/**
 * Everything the credential check needs in one indexed lookup (api_keys.hash is unique), through
 * the api_key_lookup function of migration 0030: its plan is kept per session, where this join
 * sent as SQL would be planned again on every request.
 */
export async function findForVerify(db: Q, hash: Buffer): Promise<VerifyRow | undefined> {
  const result = await sql<VerifyRow>`select * from api_key_lookup(${hash})`.execute(db);
  return result.rows[0];
}

/** Records use at most once a minute per key, so the check is not a write per request. */
export async function touchLastUsed(db: Q, id: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 60_000);
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    // A last use lost in a crash of the database server is harmless: the request does not wait for the flush.
    .returning(asyncCommit().as('commit_mode'))
    .execute();
}

function viewQuery(db: Q) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .leftJoin('teams as t', 't.id', 'k.team_id')
    .select([
      'k.id',
      'k.prefix',
      'k.name',
      'k.kind',
      'k.scopes',
      'k.allowed_ips',
      'k.team_id',
      'k.account_id',
      'k.created_at',
      'k.last_used_at',
      'k.expires_at',
      'k.revoked_at',
      'k.revoked_reason',
      'a.email',
      't.name as team_name',
    ]);
}

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findKey>>>;

export function findKey(db: Q, id: string) {
  return viewQuery(db).where('k.id', '=', id).executeTakeFirst();
}

export function listKeys(db: Q, filter: { accountId?: string; teamId?: string; includeRevoked: boolean }) {
  let q = viewQuery(db);
  if (filter.accountId) q = q.where('k.account_id', '=', filter.accountId);
  if (filter.teamId) q = q.where('k.team_id', '=', filter.teamId);
  if (!filter.includeRevoked) q = q.where('k.revoked_at', 'is', null);
  return q.orderBy('k.created_at', 'desc').orderBy('k.id').execute();
}

/** Where a page of keys resumes: after this key, in the list's order (newest first, then by id). */
export interface KeyCursor {
  createdAt: Date;
  id: string;
}

// Compared at millisecond precision (what a cursor carries), on PGlite and PostgreSQL alike.
const createdMs = sql<Date>`date_trunc('milliseconds', k.created_at)`;

/** One page of live keys (`limit + 1` rows: the caller cuts it and knows there is more). */
export function pageKeys(db: Q, filter: { accountId?: string; teamId?: string }, limit: number, after: KeyCursor | null) {
  let q = viewQuery(db).select(createdMs.as('created_ms')).where('k.revoked_at', 'is', null);
  if (filter.accountId) q = q.where('k.account_id', '=', filter.accountId);
  if (filter.teamId) q = q.where('k.team_id', '=', filter.teamId);
  if (after) q = q.where((eb) => eb.or([eb(createdMs, '<', after.createdAt), eb.and([eb(createdMs, '=', after.createdAt), eb('k.id', '>', after.id)])]));
  return q
    .orderBy(createdMs, 'desc')
    .orderBy('k.id')
    .limit(limit + 1)
    .execute();
}

export async function updateKey(db: Q, id: string, set: { name?: string; expires_at?: Date | null; allowed_ips?: string[] }): Promise<void> {
  await db.updateTable('api_keys').set(set).where('id', '=', id).execute();
}

/** True when this call revoked the key (false: it already was). */
export async function revokeKey(db: Q, id: string, now: Date, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A creator leaving a team: every team key they made stops working (spec "Rules" 2). */
export function revokeTeamKeysOf(db: Q, teamId: string, accountId: string, now: Date, reason: string) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('team_id', '=', teamId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'kind', 'prefix', 'scopes', 'team_id', 'account_id'])
    .execute();
}
