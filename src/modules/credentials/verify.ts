// The credential check (house style, gate 1): credential → Actor, built from the database as it
// is now, in one query, for an API key (ctk_) or an OAuth access token (cto_, whose grant plays
// the key's part: ./oauth/). The creator's current role and the team's current features decide what
// the key may do (spec "Rules" 1): scopes the role can no longer grant are dropped, so a lost role
// or feature bites on the next request.
//
// The looked-up row is kept in memory while the power channel (kernel/coherence.ts) is usable and
// its generation has not moved. Every change to keys, accounts, teams or memberships moves the
// generation at every instance, and its writer waits for that before answering, so a cached row
// is always the row as it is now. Expiry and the allowed addresses are checked on every request.
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Actor, Feature } from '../../kernel/actor.ts';
import { type CacheChannel, CoherentMap } from '../../kernel/coherence.ts';
import { AppError } from '../../kernel/errors.ts';
import { isInRanges } from '../../kernel/ip.ts';
import { isScope, legacyScopes, type Scope } from '../../kernel/access.ts';
import { effectiveLimits } from '../accounts/index.ts';
import { ACCESS_TOKEN_PREFIX, type AccessTokenRow, findAccessTokenForVerify, touchGrant } from './oauth/index.ts';
import * as keys from './api-keys/repo.ts';
import { type Surface, unauthorizedError } from './challenge.ts';
import { grantableScopes, withheldScopes } from './grantable.ts';
import { API_KEY_PREFIX, credentialId } from './token.ts';

export interface VerifyInput {
  token: string;
  /**
   * The caller's address (already normalised: IPv4-mapped IPv6 reads as IPv4), or how to work it
   * out: it is needed only for keys limited to some addresses.
   */
  ip: string | (() => string);
  surface: Surface;
  /**
   * The connection the value came on, when there is one (an HTTP request's socket): the value's id
   * is kept with it, so a kept-alive connection presenting the same value request after request
   * has it hashed once (issue 23: the SHA-256 was 1 to 5 µs of each guarded request).
   */
  connection?: object;
}

// Longer than any credential we issue; refusing early keeps junk headers from being hashed.
const MAX_TOKEN_LENGTH = 512;

/** A key's row, or an access token's in the same columns (with the surface it is bound to). */
type CredentialRow = keys.VerifyRow | AccessTokenRow;

/** Scopes as granted at creation (legacy keys: public.read public.ai). */
export function grantedScopes(row: Pick<CredentialRow, 'scopes'>): Scope[] {
  return row.scopes === null ? [...legacyScopes] : row.scopes.filter((s): s is Scope => isScope(s));
}

/** What a key may do now: its granted scopes cut down to what its kind and the creator's current role can hold. */
export function liveScopes(row: Pick<CredentialRow, 'kind' | 'scopes' | 'team_id' | 'role' | 'features'>): Scope[] {
  const team = row.team_id !== null ? { features: (row.features ?? []) as Feature[] } : null;
  const may = grantableScopes(row.kind, team, row.role);
  return grantedScopes(row).filter((s) => may.includes(s));
}

/** Keys kept in memory at most; past it the oldest entry makes room. */
const MAX_CACHED_KEYS = 10_000;

/** A key's row and the Actor it makes (both depend only on the row, so they are kept together). */
interface Known {
  row: CredentialRow;
  actor: Actor;
  /** expires_at in ms (Infinity: never), checked against the clock on every request. */
  expiresAt: number;
  /** last_used_at in ms (-Infinity: never), to tell when the last use is due to be written. */
  usedAt: number;
}

/** The Actor a key's row makes; the per-request checks (revoked, expiry, addresses) are verify's. */
function actorOf(row: CredentialRow): Actor {
  const team =
    row.team_id !== null && row.role !== null && row.team_name !== null
      ? { id: row.team_id, name: row.team_name, role: row.role, features: (row.features ?? []) as Feature[] }
      : null;
  const overrides = team
    ? { requestsPerDay: row.t_per_day, requestsPerMinute: row.t_per_minute, aiAnswersPerDay: row.t_ai_per_day }
    : { requestsPerDay: row.a_per_day, requestsPerMinute: row.a_per_minute, aiAnswersPerDay: row.a_ai_per_day };
  return {
    account: { id: row.account_id, email: row.email, name: row.account_name },
    team,
    credential: {
      id: row.id,
      type: row.kind === 'oauth' ? 'oauth' : 'api_key',
      name: row.name,
      kind: row.kind,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      grantedScopes: grantedScopes(row),
    },
    scopes: liveScopes(row),
    ...(team ? { withheld: withheldScopes(grantedScopes(row), liveScopes(row)) } : {}),
    limitsOwner: team ? { type: 'team', id: team.id } : { type: 'account', id: row.account_id },
    limits: effectiveLimits(team ? 'team' : 'account', overrides),
  };
}

/** Frozen all through: one Actor serves every request of the key until the row changes. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

function know(row: CredentialRow): Known {
  return {
    row,
    actor: frozen(actorOf(row)),
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : Number.POSITIVE_INFINITY,
    usedAt: row.last_used_at ? new Date(row.last_used_at).getTime() : Number.NEGATIVE_INFINITY,
  };
}

/**
 * The keys of the changes a kept credential depends on (the rows api_key_lookup and
 * oauth_token_lookup read; migration 0150 NOTIFYs them): the key or grant itself, its person, and
 * its team — a membership change names the person. Only those changes drop it.
 */
export function powerKeysOf(row: CredentialRow): string[] {
  const keys = [row.kind === 'oauth' ? `grant:${row.id}` : `api_key:${row.id}`, `account:${row.account_id}`];
  if (row.team_id !== null) keys.push(`team:${row.team_id}`);
  return keys;
}

/**
 * The lookup of a presented key's or access token's hash (base64, the kept entries' id), answered
 * from memory while the power channel allows: tokens are kept beside keys, under the same
 * coherence and the same bound. `kept` answers from memory alone, without waiting.
 */
function cachedLookup(db: ModuleDeps['db'], power: CacheChannel) {
  const known = new CoherentMap<Known>(power, { max: MAX_CACHED_KEYS });
  return {
    kept: (id: string): Known | undefined => known.get(id),
    async lookup(id: string, oauth: boolean): Promise<Known | undefined> {
      const hit = known.get(id);
      if (hit) return hit;
      const mark = known.mark();
      const hash = Buffer.from(id, 'base64');
      const row = oauth ? await findAccessTokenForVerify(db, hash) : await keys.findForVerify(db, hash);
      if (!row) return undefined;
      const found = know(row);
      // Kept only if nothing it depends on changed while it was read: a row read across a change may predate it.
      known.keep(id, found, mark, powerKeysOf(row));
      return found;
    },
  };
}

export interface Verify {
  /** Builds the caller of a key or access token; throws 401 unauthorized or 403 ip_not_allowed. */
  verify(input: VerifyInput): Promise<Actor>;
  /**
   * The same check answered without waiting, when it can be: the credential is kept in memory and
   * its last use needs no write. Undefined otherwise (call verify); a refusal throws as verify's.
   */
  verifyNow(input: VerifyInput): Actor | undefined;
}

export function createVerify(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, power: CacheChannel): Verify {
  const { db, clock, config } = deps;
  const { kept, lookup } = cachedLookup(db, power);
  const denied = (surface: Surface, message: string) => unauthorizedError(config.baseUrl, surface, message, true);

  /**
   * The last value each connection presented, with its id. Held no longer than the connection
   * (a WeakMap), and compared in constant time: behind a balancer that reuses its connections to
   * the instances, one connection carries many callers' values.
   */
  const lastPresented = new WeakMap<object, { token: string; id: string }>();
  function idOf(token: string, connection: object | undefined): string {
    if (!connection) return credentialId(token);
    const last = lastPresented.get(connection);
    if (last && sameText(last.token, token)) return last.id;
    const id = credentialId(token);
    lastPresented.set(connection, { token, id });
    return id;
  }

  /** The presented value's kind and the id its row is kept under (its SHA-256); throws for what no credential looks like. */
  function presented({ token, surface, connection }: VerifyInput): { id: string; oauth: boolean } {
    const oauth = token.startsWith(ACCESS_TOKEN_PREFIX);
    if (!(oauth || token.startsWith(API_KEY_PREFIX)) || token.length > MAX_TOKEN_LENGTH) throw denied(surface, 'The credential is not valid.');
    return { id: idOf(token, connection), oauth };
  }

  /** Every request's checks of the credential found (none: not valid); throws the refusal. */
  function check(found: Known | undefined, oauth: boolean, { ip, surface }: VerifyInput, now: number): asserts found is Known {
    if (!found) throw denied(surface, 'The credential is not valid.');
    const { row } = found;
    const what = oauth ? 'access token' : 'API key';
    if (row.revoked_at) throw denied(surface, `This ${what} has been revoked.`);
    if (found.expiresAt <= now) throw denied(surface, `This ${what} has expired.`);
    // A team key whose creator is no longer a member: removal revokes such keys (and grants) in
    // the same transaction, so this only guards against a team row deleted under us.
    if (row.team_id !== null && found.actor.team === null) throw denied(surface, `This ${what} has been revoked.`);
    // RFC 8707 §2 / RFC 6750 §3.1: a token bound to one surface is not valid at another.
    if ('resource' in row && row.resource !== null && row.resource !== surface) {
      throw denied(surface, `This access token was issued for ${config.baseUrl}/${row.resource} and is not valid here.`);
    }
    if (row.allowed_ips.length > 0) {
      // The address is worked out only for keys that are limited to some.
      const address = typeof ip === 'function' ? ip() : ip;
      if (!isInRanges(address, row.allowed_ips)) {
        throw new AppError('ip_not_allowed', `This API key may be used only from its allowed addresses; ${address || 'this address'} is not one of them.`);
      }
    }
  }

  /** Whether the credential's last use is to be written now (at most once a minute). */
  const touchDue = (found: Known, now: number) => now - found.usedAt > 60_000;

  return {
    async verify(input) {
      const { id, oauth } = presented(input);
      const found = await lookup(id, oauth);
      const now = clock.ms();
      check(found, oauth, input, now);
      const { row } = found;
      if (touchDue(found, now)) {
        const at = new Date(now);
        await (oauth ? touchGrant(db, row.id, at) : keys.touchLastUsed(db, row.id, at));
        // The kept entry (if any) learns it too, or every later request would touch again.
        found.usedAt = now;
      }
      return found.actor;
    },
    verifyNow(input) {
      const { id, oauth } = presented(input);
      const found = kept(id);
      if (!found) return undefined;
      const now = clock.ms();
      check(found, oauth, input, now);
      return touchDue(found, now) ? undefined : found.actor;
    },
  };
}

/** Whether two texts are equal, in a time that depends on their length alone. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
}
