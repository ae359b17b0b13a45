// The accounts module's SQL: the only code that touches accounts, teams and memberships.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { Role } from '../../kernel/actor.ts';
import type { LimitChange } from './schema.ts';

type Q = Kysely<DB>;

const accountColumns = ['id', 'email', 'name', 'created_at', 'requests_per_day', 'requests_per_minute', 'ai_answers_per_day'] as const;
const teamColumns = ['id', 'name', 'features', 'created_at', 'requests_per_day', 'requests_per_minute', 'ai_answers_per_day'] as const;

export function findAccountById(db: Q, id: string) {
  return db.selectFrom('accounts').select(accountColumns).where('id', '=', id).executeTakeFirst();
}

/** Emails are unique regardless of case (index accounts_email on lower(email)). */
export function findAccountByEmail(db: Q, email: string) {
  return db.selectFrom('accounts').select(accountColumns).where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

/** Inserts unless the email is taken; returns undefined when it was. */
export function insertAccount(db: Q, row: { id: string; email: string; name: string | null }) {
  return db
    .insertInto('accounts')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning(accountColumns)
    .executeTakeFirst();
}

function limitColumns(change: LimitChange) {
  return {
    ...(change.requestsPerDay !== undefined ? { requests_per_day: change.requestsPerDay } : {}),
    ...(change.requestsPerMinute !== undefined ? { requests_per_minute: change.requestsPerMinute } : {}),
    ...(change.aiAnswersPerDay !== undefined ? { ai_answers_per_day: change.aiAnswersPerDay } : {}),
  };
}

/** The person proved they read mail at this address (a sign-in link was used); first time only. */
export async function markEmailVerified(db: Q, id: string, at: Date): Promise<void> {
  await db.updateTable('accounts').set({ email_verified_at: at }).where('id', '=', id).where('email_verified_at', 'is', null).execute();
}

export async function updateAccountLimits(db: Q, id: string, change: LimitChange) {
  const set = limitColumns(change);
  if (Object.keys(set).length === 0) return findAccountById(db, id);
  return db.updateTable('accounts').set(set).where('id', '=', id).returning(accountColumns).executeTakeFirst();
}

export function insertTeam(db: Q, row: { id: string; name: string; features: string[] }) {
  return db.insertInto('teams').values(row).returning(teamColumns).executeTakeFirstOrThrow();
}

export function findTeam(db: Q, id: string) {
  return db.selectFrom('teams').select(teamColumns).where('id', '=', id).executeTakeFirst();
}

/** Locks the team row: membership changes of one team take turns, so "one owner stays" holds. */
export function lockTeam(db: Q, id: string) {
  return db.selectFrom('teams').select(teamColumns).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateTeamFeatures(db: Q, id: string, features: string[]) {
  return db.updateTable('teams').set({ features }).where('id', '=', id).returning(teamColumns).executeTakeFirst();
}

export async function updateTeamLimits(db: Q, id: string, change: LimitChange) {
  const set = limitColumns(change);
  if (Object.keys(set).length === 0) return findTeam(db, id);
  return db.updateTable('teams').set(set).where('id', '=', id).returning(teamColumns).executeTakeFirst();
}

export async function roleOf(db: Q, teamId: string, accountId: string): Promise<Role | null> {
  const row = await db.selectFrom('memberships').select('role').where('team_id', '=', teamId).where('account_id', '=', accountId).executeTakeFirst();
  return row?.role ?? null;
}

export async function insertMembership(db: Q, row: { team_id: string; account_id: string; role: Role }): Promise<boolean> {
  const inserted = await db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'account_id']).doNothing())
    .returning('account_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateMembershipRole(db: Q, teamId: string, accountId: string, role: Role): Promise<void> {
  await db.updateTable('memberships').set({ role }).where('team_id', '=', teamId).where('account_id', '=', accountId).execute();
}

export async function deleteMembership(db: Q, teamId: string, accountId: string): Promise<void> {
  await db.deleteFrom('memberships').where('team_id', '=', teamId).where('account_id', '=', accountId).execute();
}

export async function countOwners(db: Q, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listMembers(db: Q, teamId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id', 'a.email', 'a.name', 'a.email_verified_at', 'm.role', 'm.created_at'])
    .where('m.team_id', '=', teamId)
    .orderBy('m.created_at')
    .orderBy('a.id')
    .execute();
}

export function listMemberships(db: Q, accountId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['t.id', 't.name', 't.features', 'm.role'])
    .where('m.account_id', '=', accountId)
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
}
