// SQL of the oauth tables: clients, authorization codes, grants and tokens. Reads of grants join
// clients and teams (the connected-apps list); the credential check's lookup is the
// oauth_token_lookup function of migration 0090.
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../../db-schema.ts';
import { asyncCommit } from '../../../kernel/db.ts';
import type { VerifyRow } from '../api-keys/repo.ts';
import type { ClientKind, ResourceName } from './tables.ts';

export type Q = Kysely<DB>;

export interface ClientRow {
  id: string;
  kind: ClientKind;
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  fresh_until: Date | null;
}

export async function findClient(db: Q, id: string): Promise<ClientRow | undefined> {
  return db
    .selectFrom('oauth_clients')
    .select(['id', 'kind', 'client_name', 'client_uri', 'redirect_uris', 'fresh_until'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertClient(db: Q, row: Omit<ClientRow, 'fresh_until'> & { registered_from: string; created_at: Date }): Promise<void> {
  await db.insertInto('oauth_clients').values(row).execute();
}

/** Clients registered from this client address since `since`, and when the oldest of them was. */
export async function countRegisteredFrom(db: Q, from: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('oauth_clients')
    .select([sql<number>`count(*)`.as('count'), sql<Date | null>`min(created_at)`.as('oldest')])
    .where('registered_from', '=', from)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null };
}

/**
 * Deletes up to `batch` clients nobody uses: registered before `before`, or metadata documents
 * last fetched before it and no longer fresh; in either case with no grant at all (a revoked grant
 * still lists its app and keeps its history) and no code that expired after `codesAfter` (a
 * redemption may be under way). Their expired codes go with them (on delete cascade).
 */
export async function deleteUnusedClients(db: Q, at: { before: Date; codesAfter: Date; now: Date }, batch: number): Promise<number> {
  const unused = db
    .selectFrom('oauth_clients as c')
    .select('c.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('c.kind', '=', 'registered'), eb('c.created_at', '<', at.before)]),
        eb.and([
          eb('c.kind', '=', 'metadata_document'),
          eb('c.fetched_at', '<', at.before),
          eb.or([eb('c.fresh_until', 'is', null), eb('c.fresh_until', '<', at.now)]),
        ]),
      ]),
    )
    .where((eb) => eb.not(eb.exists(eb.selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.id'))))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('oauth_codes as k').select('k.hash').whereRef('k.client_id', '=', 'c.id').where('k.expires_at', '>', at.codesAfter))),
    )
    .limit(batch);
  const r = await db.deleteFrom('oauth_clients').where('id', 'in', unused).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A metadata document as last fetched: kept (and refreshed) under its URL. */
export async function saveDocumentClient(db: Q, row: Omit<ClientRow, 'kind'>, now: Date): Promise<void> {
  const values = { ...row, kind: 'metadata_document' as const, fetched_at: now };
  await db
    .insertInto('oauth_clients')
    .values(values)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        client_name: row.client_name,
        client_uri: row.client_uri,
        redirect_uris: row.redirect_uris,
        fetched_at: now,
        fresh_until: row.fresh_until,
      }),
    )
    .execute();
}

/** An authorization code's row, as the table has it. */
export type CodeRow = Selectable<DB['oauth_codes']>;

export async function insertCode(db: Q, row: Omit<CodeRow, 'used_at' | 'grant_id'>): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

/**
 * A code's row, locked until the caller's transaction ends: a redemption holds it while it marks
 * the code used and issues the grant, so a second redemption waits here and then sees that grant.
 */
export async function lockCode(trx: Q, hash: Buffer): Promise<CodeRow | undefined> {
  return trx.selectFrom('oauth_codes').selectAll().where('hash', '=', hash).forUpdate().executeTakeFirst();
}

/** Marks a code used and records the grant its redemption made; the caller holds the row's lock. */
export async function useCode(trx: Q, hash: Buffer, now: Date, grantId: string): Promise<void> {
  await trx.updateTable('oauth_codes').set({ used_at: now, grant_id: grantId }).where('hash', '=', hash).execute();
}

/** Codes live a minute; those long past their expiry are only clutter. */
export async function deleteExpiredCodes(db: Q, before: Date): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<', before).execute();
}

export interface GrantRow {
  id: string;
  client_id: string;
  account_id: string;
  team_id: string | null;
  scopes: string[];
  resource: ResourceName | null;
  revoked_at: Date | null;
}

export async function insertGrant(db: Q, row: Omit<GrantRow, 'revoked_at'>): Promise<void> {
  await db.insertInto('oauth_grants').values(row).execute();
}

/** Revokes a grant and every token it issued; false when it was already revoked. */
export async function revokeGrant(db: Q, id: string, now: Date, reason: string): Promise<boolean> {
  const r = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await db.updateTable('oauth_tokens').set({ revoked_at: now }).where('grant_id', '=', id).where('revoked_at', 'is', null).execute();
  return Number(r.numUpdatedRows) === 1;
}

/** The live grants one person gave for one team (a member leaving it). */
export async function liveTeamGrantsOf(db: Q, teamId: string, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('oauth_grants')
    .select('id')
    .where('team_id', '=', teamId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/** At most once a minute per grant, so using a token is not a write per request. */
export async function touchGrant(db: Q, id: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 60_000);
  await db
    .updateTable('oauth_grants')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    // A last use lost in a crash of the database server is harmless: the request does not wait for the flush.
    .returning(asyncCommit().as('commit_mode'))
    .execute();
}

export function grantViews(db: Q) {
  return db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .leftJoin('teams as t', 't.id', 'g.team_id')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select([
      'g.id',
      'g.client_id',
      'c.client_name',
      'c.client_uri',
      'g.account_id',
      'a.email',
      'g.team_id',
      't.name as team_name',
      'g.scopes',
      'g.resource',
      'g.created_at',
      'g.last_used_at',
    ])
    .where('g.revoked_at', 'is', null)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id');
}

export type GrantView = Awaited<ReturnType<ReturnType<typeof grantViews>['execute']>>[number];

export async function findLiveGrant(db: Q, id: string): Promise<GrantView | undefined> {
  return grantViews(db).where('g.id', '=', id).executeTakeFirst();
}

export interface TokenRow {
  hash: Buffer;
  grant_id: string;
  kind: 'access' | 'refresh';
  scopes: string[];
  resource: ResourceName | null;
  expires_at: Date;
}

export async function insertTokens(db: Q, rows: TokenRow[]): Promise<void> {
  await db.insertInto('oauth_tokens').values(rows).execute();
}

/** A presented token with its grant (revocation and refresh). */
export async function findToken(db: Q, hash: Buffer) {
  return db
    .selectFrom('oauth_tokens as tk')
    .innerJoin('oauth_grants as g', 'g.id', 'tk.grant_id')
    .select([
      'tk.kind',
      'tk.scopes',
      'tk.expires_at',
      'tk.used_at',
      'tk.revoked_at',
      'g.id as grant_id',
      'g.client_id',
      'g.account_id',
      'g.team_id',
      'g.scopes as grant_scopes',
      'g.resource',
      'g.revoked_at as grant_revoked_at',
    ])
    .where('tk.hash', '=', hash)
    .executeTakeFirst();
}

/** Marks a refresh token rotated, once: false when it already was (reuse). */
export async function takeRefreshToken(db: Q, hash: Buffer, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('oauth_tokens')
    .set({ used_at: now })
    .where('hash', '=', hash)
    .where('kind', '=', 'refresh')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Revokes one token; the grant it belongs to when this call revoked it, else null. */
export async function revokeToken(db: Q, hash: Buffer, now: Date): Promise<string | null> {
  const row = await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('hash', '=', hash)
    .where('revoked_at', 'is', null)
    .returning('grant_id')
    .executeTakeFirst();
  return row?.grant_id ?? null;
}

/** What a credential event names of a grant, revoked or not: its person, team, scopes and app. */
export function grantForEvent(db: Q, id: string) {
  return db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select(['g.id', 'g.account_id', 'g.team_id', 'g.scopes', 'c.client_name'])
    .where('g.id', '=', id)
    .executeTakeFirst();
}

/** What the credential check reads for an access token: api_key_lookup's columns and the token's resource. */
export type AccessTokenRow = Omit<VerifyRow, 'kind' | 'scopes'> & { kind: 'oauth'; scopes: string[]; resource: ResourceName | null };

export async function findAccessTokenForVerify(db: Q, hash: Buffer): Promise<AccessTokenRow | undefined> {
  const result = await sql<AccessTokenRow>`select * from oauth_token_lookup(${hash})`.execute(db);
  return result.rows[0];
}
