// The OAuth 2.1 authorization server's service: who may grant what (Personal, or a team where
// the person may make team keys, each with what that owner can hold), the connected apps a
// person sees and disconnects, and the composition of clients, authorization, tokens and grants.
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import type { Jobs } from '../../../kernel/jobs.ts';
import type { Scope } from '../../../kernel/access.ts';
import type { Caller } from '../../../kernel/actor.ts';
import type { Accounts } from '../../accounts/index.ts';
import { canListTeamKeys, canManageKey } from '../api-keys/policy.ts';
import type { ApiKeys } from '../api-keys/service.ts';
import { grantableScopes } from '../grantable.ts';
import { type AuthorizationRequest, createAuthorize, type OwnerChoice } from './authorize.ts';
import { createClientCleanup } from './cleanup.ts';
import { createClients } from './clients.ts';
import type { SecurityLog } from '../../security-log/index.ts';
import { createGrants } from './grants.ts';
import type { DocumentFetch } from './metadata-document.ts';
import * as repo from './repo.ts';
import { createTokenEndpoint } from './token-endpoint.ts';

/** A connected app as the account page and Settings → API keys list it. */
export interface ConnectedApp {
  id: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  person: string;
  team: { id: string; name: string } | null;
  scopes: string[];
  resource: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function presentApp(row: repo.GrantView): ConnectedApp {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    clientUri: row.client_uri,
    person: row.email,
    team: row.team_id && row.team_name ? { id: row.team_id, name: row.team_name } : null,
    scopes: row.scopes,
    resource: row.resource,
    createdAt: iso(row.created_at as unknown as Date)!,
    lastUsedAt: iso(row.last_used_at),
  };
}

const personalScopes = grantableScopes('oauth', null, null);

export interface OAuthDeps {
  accounts: Accounts;
  keys: Pick<ApiKeys, 'teamKeyScopes'>;
  settlePower: () => Promise<void>;
  fetchDocument: DocumentFetch;
  /** Credential events: every grant issued, refreshed or revoked (modules/security-log). */
  securityLog: Pick<SecurityLog, 'credential'>;
  /** The job queue the clean-up of unused clients runs on. */
  jobs: Pick<Jobs, 'work' | 'schedule'>;
}

export function createOAuthService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, others: OAuthDeps) {
  const { db } = deps;
  const { accounts } = others;
  const clients = createClients(deps, others.fetchDocument);
  const grants = createGrants(deps, others.settlePower, others.securityLog);
  const authorize = createAuthorize(deps, clients);
  const endpoint = createTokenEndpoint(deps, clients, grants);
  const cleanup = createClientCleanup(deps, others.jobs);

  // A member leaving a team: the grants they gave for it end with the membership (spec "Rules" 2).
  accounts.onMembershipEnded(async (trx, ended) => {
    for (const id of await repo.liveTeamGrantsOf(trx, ended.teamId, ended.accountId)) await grants.revokeGrant(id, 'its person left the team', trx);
  });

  /** Whether `by` may see and disconnect this grant: its person, or an owner or admin of its team (as for keys). */
  async function manageable(by: Caller, id: string, within?: { teamId: string } | { accountId: string }) {
    const row = await repo.findLiveGrant(db, id);
    if (!row) throw new AppError('not_found', 'No such connected app.');
    if (within && ('teamId' in within ? row.team_id !== within.teamId : row.account_id !== within.accountId))
      throw new AppError('not_found', 'No such connected app.');
    const role = row.team_id ? await accounts.members.roleOf(row.team_id, by.account.id) : null;
    if (!canManageKey(by, { accountId: row.account_id, teamId: row.team_id }, role)) throw new AppError('not_found', 'No such connected app.');
    return row;
  }

  return {
    clients,
    authorize,
    token: endpoint.token,
    revoke: endpoint.revoke,
    /** Deletes clients that never got a grant (cleanup.ts); start() runs it hourly on the job queue. */
    deleteUnusedClients: cleanup.deleteUnused,
    start: cleanup.start,

    /**
     * What the person may choose on the consent page: Personal, and each team where they may make
     * team keys, each with the part of the requested scopes that owner can hold (the app gets only
     * what the account can grant). Owners that could hold none of them are left out.
     */
    async owners(accountId: string, requested: readonly Scope[]): Promise<OwnerChoice[]> {
      const out: OwnerChoice[] = [];
      const personal = requested.filter((s) => personalScopes.includes(s));
      if (personal.length) out.push({ value: 'personal', label: 'Personal', teamId: null, scopes: personal });
      for (const m of await accounts.memberships(accountId)) {
        const may = await others.keys.teamKeyScopes(accountId, m.teamId);
        const scopes = may ? requested.filter((s) => may.includes(s)) : [];
        if (scopes.length) out.push({ value: m.teamId, label: `Team: ${m.teamName}`, teamId: m.teamId, scopes });
      }
      return out;
    },

    /** The consent's decision for the owner chosen (refused if it is not one on offer). */
    async approve(request: AuthorizationRequest, accountId: string, ownerValue: string): Promise<string> {
      const owner = (await this.owners(accountId, request.scopes)).find((o) => o.value === ownerValue);
      if (!owner) throw new AppError('invalid_request', 'Choose Personal or one of the teams offered.');
      return authorize.approve(request, accountId, owner);
    },

    /** The apps a person connected (personal and team grants), or a team's (every one for its owners and admins, else the person's own). */
    async connectedApps(by: Caller, where: { accountId: string } | { teamId: string }): Promise<ConnectedApp[]> {
      if ('accountId' in where) {
        if (where.accountId !== by.account.id) throw new AppError('not_found', 'No such account.');
        return (await repo.grantViews(db).where('g.account_id', '=', where.accountId).execute()).map(presentApp);
      }
      const role = await accounts.members.roleOf(where.teamId, by.account.id);
      if (!role) throw new AppError('not_found', 'No such team.');
      let q = repo.grantViews(db).where('g.team_id', '=', where.teamId);
      if (!canListTeamKeys(by, role)) q = q.where('g.account_id', '=', by.account.id);
      return (await q.execute()).map(presentApp);
    },

    /** Disconnects an app: the grant and every token it issued stop working on their next request. */
    async disconnect(by: Caller, id: string, within?: { teamId: string } | { accountId: string }): Promise<void> {
      const row = await manageable(by, id, within);
      await grants.revokeGrant(row.id, row.account_id === by.account.id ? 'disconnected by its person' : 'disconnected by a team owner or admin');
    },
  };
}

export type OAuth = ReturnType<typeof createOAuthService>;
