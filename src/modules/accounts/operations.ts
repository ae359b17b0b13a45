// The members operations of a team (decisions.md "Accounts, teams"): list, add, change a role,
// remove. Each acts on the team of the calling credential. The access check asks for the scope;
// the accounts policy (./policy.ts) then decides what this caller may do to this member: owners
// and admins manage members, admins neither make nor unmake owners, anyone may remove themselves
// (leave), a team keeps an owner. v2 routes, the members page and the agent surfaces bind these.
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import type { Access } from '../../kernel/access.ts';
import { Deleted } from '../../kernel/schema.ts';
import type { Accounts } from './index.ts';
import { TeamMember, TeamMembers } from './schema.ts';

const op = operationsOf<Accounts>();

// Membership is no team feature: every team manages its members. The roles are the policy's, not
// the gate's: a member holding team.members.write may still leave, and is told why anything else
// is refused (403 forbidden), before anything about the person named is said.
const read: Access = { scopes: ['team.members.read'], context: 'team' };
const write: Access = { scopes: ['team.members.write'], context: 'team' };
const common = { tags: ['team'], private: true, limit: 'data' } as const;

const AccountId = Type.String({ minLength: 1, maxLength: 200, description: 'Account id of the member (accountId in the members list).' });
// Checked by the service after the policy (a caller who may not add learns nothing more), so a
// plain string here: 400 invalid_request names the roles.
const Role = Type.String({ maxLength: 20, description: 'owner, admin or member. Only owners make, change or remove owners.' });
const teamOf = (actor: { team: { id: string } | null }) => actor.team!.id;
const member = (list: { accountId: string }[], accountId: string) => list.find((m) => m.accountId === accountId)!;

export const accountsOperations = {
  'team.members.list': op({
    ...common,
    effect: 'read',
    access: read,
    summary: "List the team's members and their roles",
    input: Type.Object({}, { additionalProperties: false }),
    output: TeamMembers,
    run: async (accounts, actor) => ({ data: await accounts.members.list(actor, teamOf(actor)) }),
  }),
  'team.members.add': op({
    ...common,
    effect: 'write',
    access: write,
    summary: 'Invite someone to the team by email',
    description:
      "Owners and admins only (403 forbidden), and admins cannot add owners. Adds the person with this email address, making their account if they have never signed in (emailVerified stays false until they do), and emails them who added them to which team, with a sign-in link that lands on the team's dashboard. The link counts as a sign-in link: at most 5 an hour per mailbox and SIGNIN_PER_CLIENT_PER_HOUR (50) an hour per inviting person; over either, 429 rate_limited with Retry-After and no one is added. Someone already in the team is 409 conflict.",
    input: Type.Object(
      { email: Type.String({ maxLength: 254, description: 'Their email address (one mailbox, as sign-in reads it).' }), role: Role },
      { additionalProperties: false },
    ),
    output: TeamMember,
    run: async (accounts, actor, input) => {
      const list = await accounts.members.addByEmail(actor, { teamId: teamOf(actor), email: input.email, role: input.role });
      const added = await accounts.requireByEmail(input.email);
      return member(list, added.id);
    },
  }),
  'team.members.role.set': op({
    ...common,
    effect: 'write',
    access: write,
    summary: "Change a member's role",
    description: 'Not a member of this team: 404. Admins neither make nor unmake owners (403); the last owner stays owner (400).',
    input: Type.Object({ accountId: AccountId, role: Role }, { additionalProperties: false }),
    output: TeamMember,
    run: async (accounts, actor, input) => member(await accounts.members.setRole(actor, { teamId: teamOf(actor), ...input }), input.accountId),
  }),
  'team.members.remove': op({
    ...common,
    effect: 'write',
    access: write,
    summary: 'Remove a member from the team, or leave it yourself (their team keys are revoked with it)',
    description:
      'Anyone may remove themselves (leave). Not a member of this team: 404. Admins cannot remove owners (403); the last owner cannot be removed (400).',
    input: Type.Object({ accountId: AccountId }, { additionalProperties: false }),
    output: Deleted,
    run: async (accounts, actor, input) => {
      await accounts.members.remove(actor, { teamId: teamOf(actor), accountId: input.accountId });
      return { id: input.accountId, deleted: true as const };
    },
  }),
} satisfies Record<string, OperationDef<Accounts, any, any>>;
