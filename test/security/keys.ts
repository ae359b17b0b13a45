// The credentials the generated security cases call with, for one operation's access: the right
// key and the keys that must be refused (wrong scope, revoked, expired, outside its allowed IPs,
// a team without the feature, a creator demoted below the roles, another team). Shared by the
// route matrix (matrix.test.ts) and the MCP tool matrix (mcp.test.ts), so both meet the same keys.
import type { AppContext } from '../../src/context.ts';
import { type Feature, features } from '../../src/kernel/actor.ts';
import type { ManualClock } from '../../src/kernel/clock.ts';
import type { Access, Scope } from '../../src/kernel/access.ts';
import { operator } from '../../src/kernel/actor.ts';
import { keyKindFor, otherScopes } from './route-table.ts';
import { accountActor } from '../helpers/actors.ts';

export interface Keys {
  accountId: string;
  teamId: string | null;
  valid: string;
  wrongScope: string | null;
  revoked: string;
  expired: string;
  ipLimited: string;
}

export function securityKeys(ctx: AppContext, clock: ManualClock, label: string) {
  const { accounts, credentials } = ctx.services;
  let serial = 0;
  const email = () => `${label}${++serial}@example.org`;

  async function owner(kind: 'personal' | 'team') {
    const account = await accounts.create({ email: email() });
    const teamId =
      kind === 'team' ? (await accounts.teams.create(operator, { name: `Team ${serial}`, ownerAccountId: account.id, features: [...features] })).id : null;
    return { accountId: account.id, teamId };
  }

  return {
    owner,

    async keysFor(op: Access): Promise<Keys> {
      const kind = keyKindFor(op);
      const { accountId, teamId } = await owner(kind);
      const needed: Scope[] = op.scopes.length ? [...op.scopes] : ['public.read'];
      const make = async (scopes: Scope[], extra: { expiresAt?: Date; allowedIps?: string[] } = {}) =>
        credentials.keys.create({ accountId, teamId, name: label, scopes, ...extra });
      const revoked = await make(needed);
      await credentials.keys.revoke(accountActor(accountId), { id: revoked.id });
      const keys: Keys = {
        accountId,
        teamId,
        valid: (await make(needed)).key,
        wrongScope: op.scopes.length ? (await make(otherScopes(op, kind))).key : null,
        revoked: revoked.key,
        expired: (await make(needed, { expiresAt: new Date(clock.now().getTime() + 1000) })).key,
        // 203.0.113.0/24 is TEST-NET-3 (RFC 5737); injected requests come from 127.0.0.1.
        ipLimited: (await make(needed, { allowedIps: ['203.0.113.0/24'] })).key,
      };
      clock.advance(2000);
      return keys;
    },

    /** The owner's key, with the operation's scopes, of a team that has every feature but this one. */
    async withoutFeature(op: Access, feature: Feature): Promise<string> {
      const account = await accounts.create({ email: email() });
      const team = await accounts.teams.create(operator, {
        name: `No ${feature}`,
        ownerAccountId: account.id,
        features: features.filter((f) => f !== feature),
      });
      return (await credentials.keys.create({ accountId: account.id, teamId: team.id, name: 'no feature', scopes: [...op.scopes] })).key;
    },

    /** The key of an admin who made it with the operation's scopes and was then demoted to member. */
    async demoted(op: Access): Promise<string> {
      const founder = await owner('team');
      const admin = await accounts.create({ email: email() });
      await accounts.members.add(operator, { teamId: founder.teamId!, accountId: admin.id, role: 'admin' });
      const { key } = await credentials.keys.create({ accountId: admin.id, teamId: founder.teamId, name: 'admin key', scopes: [...op.scopes] });
      await accounts.members.setRole(operator, { teamId: founder.teamId!, accountId: admin.id, role: 'member' });
      return key;
    },

    /** The owner's key of another team, with the same scopes. */
    async stranger(op: Access): Promise<string> {
      const other = await owner('team');
      return (await credentials.keys.create({ accountId: other.accountId, teamId: other.teamId, name: 'stranger', scopes: [...op.scopes] })).key;
    },
  };
}
