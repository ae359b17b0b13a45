// Accounts, teams, memberships, features and limit overrides. Every change names who asks (an
// Actor: a person's credential, or the operator) and checks policy first; membership changes run in one transaction with the team row
// locked, and tell subscribers (the credentials module revokes keys) inside that transaction.
import type { Kysely, Transaction } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { DB } from '../../db-schema.ts';
import { type Actor, type Feature, isOperator, type Role } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import { mailboxOrNull, parseMailbox } from '../../kernel/mailbox.ts';
import * as policy from './policy.ts';
import { presentAccount, presentMember, presentMembership, presentTeam } from './presenters.ts';
import * as repo from './repo.ts';
import {
  type AccountView,
  type LimitChange,
  type MembershipView,
  parseFeatures,
  parseLimitChange,
  parseName,
  parseRole,
  type TeamMemberView,
  type TeamView,
} from './schema.ts';

/** Runs inside the transaction that ends a membership (removal), before it commits. */
export type MembershipEndedHook = (trx: Kysely<DB>, ended: { teamId: string; accountId: string }) => Promise<void>;

/**
 * Runs inside the transaction that adds someone by email (the members page, v2, the agents), before
 * it commits: it may refuse (a limit), which adds no one. What it returns runs after the commit
 * (the sessions module mails the person a sign-in link to the team's dashboard).
 */
export type MemberAddedHook = (trx: Transaction<DB>, added: MemberAdded) => Promise<(() => Promise<void>) | undefined>;

export interface MemberAdded {
  team: { id: string; name: string };
  account: { id: string; email: string };
  role: Role;
  /** Whether the account was made by this addition (the person never signed in). */
  newAccount: boolean;
  by: { id: string; email: string; name: string | null };
}

export interface MemberChange {
  teamId: string;
  accountId: string;
}

const notFound = (what: string) => new AppError('not_found', `No such ${what}.`);

export function createAccountsService(deps: Pick<ModuleDeps, 'db' | 'clock'>, settlePower: () => Promise<void>) {
  const { db, clock } = deps;
  /** A change of what someone may do is settled after its commit, before the caller hears of it. */
  async function settled<T>(change: Promise<T>): Promise<T> {
    const result = await change;
    await settlePower();
    return result;
  }
  const membershipEnded: MembershipEndedHook[] = [];
  const memberAdded: MemberAddedHook[] = [];

  async function requireAccount(q: Kysely<DB>, id: string) {
    const row = await repo.findAccountById(q, id);
    if (!row) throw notFound('account');
    return row;
  }

  /** The team as the caller may see it: another team's id is not_found, never forbidden. */
  async function visibleTeam(q: Kysely<DB>, by: Actor, teamId: string, lock = false) {
    const row = lock ? await repo.lockTeam(q, teamId) : await repo.findTeam(q, teamId);
    const callerRole = !isOperator(by) && row ? await repo.roleOf(q, teamId, by.account.id) : null;
    if (!row || !policy.canSeeTeam(by, callerRole)) throw notFound('team');
    return { row, callerRole };
  }

  const accounts = {
    async create(input: { email: string; name?: string | null }): Promise<AccountView> {
      const email = parseMailbox(input.email);
      const name = parseName(input.name, 'name', false);
      const row = await repo.insertAccount(db, { id: `acc_${crypto.randomUUID()}`, email, name });
      if (!row) throw new AppError('conflict', `An account with the email ${email} already exists.`);
      return presentAccount(row);
    },
    async get(id: string): Promise<AccountView> {
      return presentAccount(await requireAccount(db, id));
    },
    async findByEmail(email: string): Promise<AccountView | null> {
      const mailbox = mailboxOrNull(email);
      const row = mailbox ? await repo.findAccountByEmail(db, mailbox) : undefined;
      return row ? presentAccount(row) : null;
    },
    /** Records that the person opened mail sent to the account's address (sign-in, approvals). */
    async markEmailVerified(accountId: string): Promise<void> {
      await repo.markEmailVerified(db, accountId, clock.now());
    },
    async requireByEmail(email: string): Promise<AccountView> {
      const mailbox = parseMailbox(email);
      const row = await repo.findAccountByEmail(db, mailbox);
      if (!row) throw new AppError('not_found', `No account with the email ${mailbox}.`);
      return presentAccount(row);
    },
    async setLimits(by: Actor, input: { accountId: string; limits: LimitChange }): Promise<AccountView> {
      policy.requireOperator(by, "change an account's limits");
      const change = parseLimitChange(input.limits);
      const row = await settled(repo.updateAccountLimits(db, input.accountId, change));
      if (!row) throw notFound('account');
      return presentAccount(row);
    },
    /** The teams an account belongs to, with its role in each. */
    async memberships(accountId: string): Promise<MembershipView[]> {
      return (await repo.listMemberships(db, accountId)).map(presentMembership);
    },
  };

  const teams = {
    async create(by: Actor, input: { name: string; ownerAccountId: string; features?: readonly string[] }): Promise<TeamView> {
      const name = parseName(input.name, 'name', true)!;
      const features = parseFeatures(input.features ?? []);
      policy.requireTeamCreation(by, input.ownerAccountId, features.length > 0);
      return db.transaction().execute(async (trx) => {
        await requireAccount(trx, input.ownerAccountId);
        const row = await repo.insertTeam(trx, { id: `team_${crypto.randomUUID()}`, name, features });
        await repo.insertMembership(trx, { team_id: row.id, account_id: input.ownerAccountId, role: 'owner' });
        return presentTeam(row);
      });
    },
    async get(by: Actor, teamId: string): Promise<TeamView & { members: TeamMemberView[] }> {
      const { row } = await visibleTeam(db, by, teamId);
      const members = (await repo.listMembers(db, teamId)).map(presentMember);
      return { ...presentTeam(row), members };
    },
    /** The team's current facts, for other modules (the caller checks its own policy). */
    async find(teamId: string): Promise<TeamView | null> {
      const row = await repo.findTeam(db, teamId);
      return row ? presentTeam(row) : null;
    },
    async setFeatures(by: Actor, input: { teamId: string; enable?: readonly string[]; disable?: readonly string[] }): Promise<TeamView> {
      policy.requireOperator(by, 'switch team features');
      const enable = parseFeatures(input.enable ?? []);
      const disable = parseFeatures(input.disable ?? []);
      const both = enable.filter((f) => disable.includes(f));
      if (both.length) throw new AppError('invalid_request', `A feature cannot be both enabled and disabled: ${both.join(', ')}.`);
      return settled(
        db.transaction().execute(async (trx) => {
          const { row } = await visibleTeam(trx, by, input.teamId, true);
          const current = row.features as Feature[];
          const next = [...current.filter((f) => !disable.includes(f)), ...enable.filter((f) => !current.includes(f))];
          return presentTeam((await repo.updateTeamFeatures(trx, input.teamId, next))!);
        }),
      );
    },
    async setLimits(by: Actor, input: { teamId: string; limits: LimitChange }): Promise<TeamView> {
      policy.requireOperator(by, "change a team's limits");
      const change = parseLimitChange(input.limits);
      const row = await settled(repo.updateTeamLimits(db, input.teamId, change));
      if (!row) throw notFound('team');
      return presentTeam(row);
    },
  };

  /** One membership change under the team lock: look up both roles, ask policy, then write. */
  async function changeMembership(by: Actor, change: MemberChange, to: Role | null, mustExist: boolean) {
    return settled(membershipTransaction(by, change, to, mustExist));
  }

  function membershipTransaction(by: Actor, change: MemberChange, to: Role | null, mustExist: boolean) {
    return db.transaction().execute((trx) => changeMembershipIn(trx, by, change, to, mustExist));
  }

  async function changeMembershipIn(trx: Kysely<DB>, by: Actor, change: MemberChange, to: Role | null, mustExist: boolean) {
    const { callerRole } = await visibleTeam(trx, by, change.teamId, true);
    await requireAccount(trx, change.accountId);
    const from = await repo.roleOf(trx, change.teamId, change.accountId);
    if (mustExist && from === null) throw new AppError('not_found', 'That account is not a member of this team.');
    if (!mustExist && from !== null) throw new AppError('conflict', `That account is already a member of this team (${from}).`);
    policy.requireMembershipChange(by, callerRole, { accountId: change.accountId, from, to });
    if (from === null) {
      await repo.insertMembership(trx, { team_id: change.teamId, account_id: change.accountId, role: to! });
    } else if (to === null) {
      await repo.deleteMembership(trx, change.teamId, change.accountId);
      for (const hook of membershipEnded) await hook(trx, change);
    } else {
      await repo.updateMembershipRole(trx, change.teamId, change.accountId, to);
    }
    if (from === 'owner' && to !== 'owner') policy.requireOwnerRemains(await repo.countOwners(trx, change.teamId));
    return (await repo.listMembers(trx, change.teamId)).map(presentMember);
  }

  /** The account of a mailbox, made (unverified, as the CLI makes one) if no one has signed in with it yet. */
  async function accountOfMailbox(trx: Kysely<DB>, email: string) {
    const found = await repo.findAccountByEmail(trx, email);
    if (found) return { row: found, created: false };
    const made = await repo.insertAccount(trx, { id: `acc_${crypto.randomUUID()}`, email, name: null });
    // Another request made it between the two statements: theirs is the account.
    return made ? { row: made, created: true } : { row: (await repo.findAccountByEmail(trx, email))!, created: false };
  }

  const members = {
    async add(by: Actor, input: MemberChange & { role: string }): Promise<TeamMemberView[]> {
      return changeMembership(by, input, parseRole(input.role), false);
    },
    /**
     * Adds the person with this email address, making their account if they have never signed in
     * (they sign in with the emailed link; until then the members list says so). Who may add is
     * decided first, so someone who may not learns nothing about which addresses have accounts: the
     * same refusal for every address. The member-added hooks run in the same transaction (a refused
     * invitation adds no one and makes no account) and mail the person after it commits.
     */
    async addByEmail(by: Actor, input: { teamId: string; email: string; role: string }): Promise<TeamMemberView[]> {
      const role = parseRole(input.role);
      const { row: team, callerRole } = await visibleTeam(db, by, input.teamId);
      policy.requireMembershipChange(by, callerRole, { accountId: null, from: null, to: role });
      const email = parseMailbox(input.email);
      const afterCommit: (() => Promise<void>)[] = [];
      const list = await settled(
        db.transaction().execute(async (trx) => {
          const person = await accountOfMailbox(trx, email);
          const members = await changeMembershipIn(trx, by, { teamId: input.teamId, accountId: person.row.id }, role, false);
          const added: MemberAdded = {
            team: { id: team.id, name: team.name },
            account: { id: person.row.id, email: person.row.email },
            role,
            newAccount: person.created,
            by: { ...by.account },
          };
          for (const hook of memberAdded) {
            const then = await hook(trx, added);
            if (then) afterCommit.push(then);
          }
          return members;
        }),
      );
      for (const then of afterCommit) await then();
      return list;
    },
    async setRole(by: Actor, input: MemberChange & { role: string }): Promise<TeamMemberView[]> {
      return changeMembership(by, input, parseRole(input.role), true);
    },
    /** Ends a membership; the credentials module revokes the person's team keys in the same transaction. */
    async remove(by: Actor, input: MemberChange): Promise<TeamMemberView[]> {
      return changeMembership(by, input, null, true);
    },
    async list(by: Actor, teamId: string): Promise<TeamMemberView[]> {
      await visibleTeam(db, by, teamId);
      return (await repo.listMembers(db, teamId)).map(presentMember);
    },
    /** The account's current role in the team, or null when it is not a member. */
    roleOf(teamId: string, accountId: string): Promise<Role | null> {
      return repo.roleOf(db, teamId, accountId);
    },
  };

  return {
    ...accounts,
    teams,
    members,
    /** Subscribe to membership removals; the hook runs inside the removing transaction. */
    onMembershipEnded(hook: MembershipEndedHook): void {
      membershipEnded.push(hook);
    },
    /** Subscribe to additions by email; the hook runs inside the adding transaction (see MemberAddedHook). */
    onMemberAdded(hook: MemberAddedHook): void {
      memberAdded.push(hook);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
