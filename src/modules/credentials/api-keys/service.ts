// API keys: make (value shown once, stored as SHA-256), list, rename, change expiry and allowed
// IPs, revoke. Policy is asked first; scopes are checked against the key kind and the creator's
// role at creation, and again on every request by verify.ts (live power).
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import type { Scope } from '../../../kernel/access.ts';
import type { Page, PageInput } from '../../../kernel/schema.ts';
import { type Caller, isOperator } from '../../../kernel/actor.ts';
import type { Accounts } from '../../accounts/index.ts';
import type { CredentialEvent, CredentialVia } from '../../security-log/index.ts';
import { grantableScopes } from '../grantable.ts';
import { hashCredential, newApiKeyValue, SHOWN_PREFIX_LENGTH } from '../token.ts';
import * as policy from './policy.ts';
import { presentKey } from './presenters.ts';
import * as repo from './repo.ts';
import { type ApiKeyView, decodeKeyCursor, encodeKeyCursor, parseAllowedIps, parseExpiry, parseKeyName, parseScopes } from './schema.ts';

export interface CreateKeyInput {
  /** The account that makes and owns the key (for a team key: its creator). */
  accountId: string;
  name: string;
  /** null only for a legacy key (acts as public.read public.ai). */
  scopes: readonly string[] | null;
  teamId?: string | null;
  expiresAt?: string | Date | null;
  allowedIps?: readonly string[];
  kind?: 'scoped' | 'registration';
  /** Who asks; omitted: the account itself, with no credential (a registration being claimed). */
  by?: Caller;
  /** Where it is issued, for the credential event (default: the website, or operator for the operator). */
  via?: CredentialVia;
  /** Made by another credential: the scopes it holds, which the new key may not exceed. */
  ceiling?: readonly Scope[];
}

/** What a key change may set; fields left out stay as they are. */
export interface KeyChange {
  name?: string;
  expiresAt?: string | Date | null;
  allowedIps?: readonly string[];
}

export interface CreatedKey {
  id: string;
  /** The value, shown this once; only its hash is kept. */
  key: string;
  apiKey: ApiKeyView;
}

const notFound = () => new AppError('not_found', 'No such API key.');

/** Where a page acts: a team's keys, or the keys a person made (the account page). Other keys do not exist there. */
export type KeyContext = { teamId: string } | { accountId: string };
type KeyRef = { id: string; within?: KeyContext };

/** Emits credential.issued / credential.revoked (modules/security-log): the security log and webhooks. */
export type EmitCredentialEvent = (event: CredentialEvent) => Promise<unknown>;

/** A key row as a credential event names it. */
export function keyCredential(row: {
  id: string;
  name: string;
  kind: string;
  prefix: string;
  scopes: string[] | null;
  team_id: string | null;
}): CredentialEvent['credential'] {
  return {
    id: row.id,
    type: 'api_key',
    kind: row.kind,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes ?? ['public.read', 'public.ai'],
    teamId: row.team_id,
  };
}

const viaOf = (by: Caller | 'self', via: CredentialVia | undefined): CredentialVia => via ?? (by !== 'self' && isOperator(by) ? 'operator' : 'website');

/** `settlePower` runs after a key's change commits, so it bites on the key's next request everywhere. */
export function createApiKeys(deps: Pick<ModuleDeps, 'db' | 'clock'>, accounts: Accounts, settlePower: () => Promise<void>, emit: EmitCredentialEvent) {
  const { db, clock } = deps;

  /** The key as the caller may see it; anyone else's key does not exist for them. */
  async function manageable(by: Caller, id: string, within?: KeyContext) {
    const row = await repo.findKey(db, id);
    if (!row) throw notFound();
    if (within && ('teamId' in within ? row.team_id !== within.teamId : row.account_id !== within.accountId)) throw notFound();
    const callerRole = !isOperator(by) && row.team_id ? await accounts.members.roleOf(row.team_id, by.account.id) : null;
    if (!policy.canManageKey(by, { accountId: row.account_id, teamId: row.team_id }, callerRole)) throw notFound();
    return row;
  }

  async function change(by: Caller, ref: KeyRef, set: Parameters<typeof repo.updateKey>[2]): Promise<ApiKeyView> {
    const { id } = ref;
    const row = await manageable(by, id, ref.within);
    if (row.revoked_at) throw new AppError('invalid_request', 'This key is revoked; make a new one.');
    await repo.updateKey(db, id, set);
    await settlePower();
    return presentKey((await repo.findKey(db, id))!);
  }

  return {
    async create(input: CreateKeyInput): Promise<CreatedKey> {
      const by = input.by ?? 'self';
      const kind = input.kind ?? 'scoped';
      const name = parseKeyName(input.name);
      const scopes: Scope[] | null = input.scopes === null ? null : parseScopes(input.scopes);
      const expiresAt = parseExpiry(input.expiresAt, clock.now());
      const allowedIps = parseAllowedIps(input.allowedIps ?? []);
      if (by !== 'self') policy.requireCreator(by, input.accountId);
      await accounts.get(input.accountId);
      let team = null;
      if (input.teamId) {
        const found = await accounts.teams.find(input.teamId);
        if (!found) throw new AppError('not_found', 'No such team.');
        team = { role: await accounts.members.roleOf(found.id, input.accountId), features: found.features };
        policy.requireTeamKeyMaker(by, team);
        if (kind === 'registration') throw new AppError('invalid_request', 'A registration key is always personal.');
      }
      if (scopes === null && team) throw new AppError('invalid_request', 'A team key needs scopes.');
      if (scopes) policy.requireGrantableScopes(scopes, team, kind, input.ceiling);
      if (scopes === null && input.ceiling) throw new AppError('invalid_request', 'A key made by another credential needs scopes.');
      const key = newApiKeyValue();
      const id = `key_${crypto.randomUUID()}`;
      await repo.insertKey(db, {
        id,
        account_id: input.accountId,
        team_id: input.teamId ?? null,
        name,
        kind: scopes === null ? 'legacy' : kind,
        prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        hash: hashCredential(key),
        scopes,
        allowed_ips: allowedIps,
        expires_at: expiresAt,
      });
      const row = (await repo.findKey(db, id))!;
      await emit({ type: 'credential.issued', accountId: input.accountId, credential: keyCredential(row), via: viaOf(by, input.via) });
      return { id, key, apiKey: presentKey(row) };
    },

    /** An account's own keys (personal and the team keys it made), or every key of a team. */
    async list(by: Caller, filter: { accountId?: string; teamId?: string; includeRevoked?: boolean }): Promise<ApiKeyView[]> {
      if (!filter.accountId && !filter.teamId) throw new AppError('invalid_request', 'List the keys of an account or of a team.');
      if (filter.accountId && !isOperator(by) && by.account.id !== filter.accountId && !filter.teamId) throw notFound();
      if (filter.teamId) {
        const role = isOperator(by) ? null : await accounts.members.roleOf(filter.teamId, by.account.id);
        if (!(await accounts.teams.find(filter.teamId)) || !policy.canListTeamKeys(by, role)) throw new AppError('not_found', 'No such team.');
      }
      const rows = await repo.listKeys(db, {
        ...(filter.accountId ? { accountId: filter.accountId } : {}),
        ...(filter.teamId ? { teamId: filter.teamId } : {}),
        includeRevoked: filter.includeRevoked ?? false,
      });
      return rows.map(presentKey);
    },

    /**
     * The scopes this person may put on a key of this team now (what an OAuth grant for the team
     * may hold too), or null when they may not make team keys there.
     */
    async teamKeyScopes(accountId: string, teamId: string): Promise<Scope[] | null> {
      const team = await accounts.teams.find(teamId);
      const role = team ? await accounts.members.roleOf(team.id, accountId) : null;
      if (!team || !role || !policy.canMakeTeamKeys(role)) return null;
      return grantableScopes('scoped', team, role);
    },

    /**
     * One page of live keys, newest first: the keys a person made (personal, and team keys they
     * made), or a team's — every key for its owners and admins, the team keys they made for
     * anyone else in the team. A team they are not in does not exist for them.
     */
    async page(by: Caller, where: KeyContext, q: PageInput): Promise<Page<ApiKeyView>> {
      const after = decodeKeyCursor(q.cursor);
      let filter: { accountId?: string; teamId?: string } = { accountId: by.account.id };
      if ('teamId' in where) {
        const role = await accounts.members.roleOf(where.teamId, by.account.id);
        if (!role) throw new AppError('not_found', 'No such team.');
        filter = policy.canListTeamKeys(by, role) ? { teamId: where.teamId } : { teamId: where.teamId, accountId: by.account.id };
      } else if (where.accountId !== by.account.id) throw notFound();
      const rows = await repo.pageKeys(db, filter, q.limit, after);
      const kept = rows.slice(0, q.limit);
      const last = kept[kept.length - 1];
      const more = rows.length > q.limit && last;
      return { data: kept.map(presentKey), meta: { nextCursor: more ? encodeKeyCursor(new Date(last.created_ms), last.id) : null } };
    },

    /** Renames a key, or changes its expiry or allowed addresses (only the fields given). */
    async update(by: Caller, ref: KeyRef, set: KeyChange): Promise<ApiKeyView> {
      const now = clock.now();
      return change(by, ref, {
        ...(set.name !== undefined ? { name: parseKeyName(set.name) } : {}),
        ...(set.expiresAt !== undefined ? { expires_at: parseExpiry(set.expiresAt, now) } : {}),
        ...(set.allowedIps !== undefined ? { allowed_ips: parseAllowedIps(set.allowedIps) } : {}),
      });
    },

    async get(by: Caller, id: string): Promise<ApiKeyView> {
      return presentKey(await manageable(by, id));
    },

    async rename(by: Caller, input: KeyRef & { name: string }): Promise<ApiKeyView> {
      return change(by, input, { name: parseKeyName(input.name) });
    },

    async setExpiry(by: Caller, input: KeyRef & { expiresAt: string | Date | null }): Promise<ApiKeyView> {
      return change(by, input, { expires_at: parseExpiry(input.expiresAt, clock.now()) });
    },

    /** [] lets any address use the key again. */
    async setAllowedIps(by: Caller, input: KeyRef & { allowedIps: readonly string[] }): Promise<ApiKeyView> {
      return change(by, input, { allowed_ips: parseAllowedIps(input.allowedIps) });
    },

    /** Revoking twice is harmless: the first revocation (and its reason) stays. */
    async revoke(by: Caller, input: KeyRef & { via?: CredentialVia }): Promise<ApiKeyView> {
      const row = await manageable(by, input.id, input.within);
      const reason = isOperator(by)
        ? 'revoked by an operator'
        : by.account.id === row.account_id
          ? 'revoked by its creator'
          : 'revoked by a team owner or admin';
      const revoked = await repo.revokeKey(db, input.id, clock.now(), reason);
      await settlePower();
      if (revoked) await emit({ type: 'credential.revoked', accountId: row.account_id, credential: keyCredential(row), via: viaOf(by, input.via), reason });
      return presentKey((await repo.findKey(db, input.id))!);
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
