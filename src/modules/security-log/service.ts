// Credential events (spec "Events"): `credential.issued` and `credential.revoked`. credential()
// is the one place they are emitted: it writes the account's security log and publishes the
// event to the account's webhook endpoints, in the caller's transaction when it has one (the
// log row and the deliveries then commit, or not, with the change they describe).
import type { Kysely } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Caller } from '../../kernel/actor.ts';
import type { WebhookEvent } from '../webhooks/index.ts';

export type CredentialEventType = 'credential.issued' | 'credential.revoked';

/** Where a credential was issued, or what revoked it. */
export type CredentialVia =
  | 'website' // the account page or a team's Settings → API keys
  | 'api' // the v2 API (a key or token with team.keys.write or me.keys.write)
  | 'operator' // the operator CLI or admin socket
  | 'agent_registration' // approved by email and claimed by the agent
  | 'revocation_endpoint' // POST /agent/auth/revoke, /oauth/revoke
  | 'membership_ended' // the creator left the team (spec "Rules" 2)
  | 'oauth'; // an OAuth grant, its refresh

export interface CredentialEvent {
  type: CredentialEventType;
  /** The account the credential belongs to: its security log and its webhooks get the event. */
  accountId: string;
  credential: {
    id: string;
    type: 'api_key' | 'oauth';
    /** scoped, registration or legacy for keys; the OAuth helper names its own (grant, refresh). */
    kind: string;
    name: string;
    /** The first characters of the value, as lists show them. */
    prefix?: string | null;
    scopes: readonly string[];
    teamId?: string | null;
  };
  via: CredentialVia;
  /** Why it was revoked, in words ("revoked by its creator"). */
  reason?: string | null;
}

export interface SecurityLogEntry {
  id: string;
  type: string;
  occurredAt: string;
  summary: string;
  data: unknown;
}

const viaWords: Record<CredentialVia, string> = {
  website: 'on the website',
  api: 'through the API',
  operator: 'by an operator',
  agent_registration: 'through agent registration',
  revocation_endpoint: 'at the revocation endpoint',
  membership_ended: 'because its creator left the team',
  oauth: 'through OAuth',
};

// Ids sort by time (newest first on the log page), and within one millisecond by this process's
// order; the random tail keeps ids from two instances apart.
let sequence = 0;
function eventId(at: Date): string {
  sequence = (sequence + 1) % 1_679_616;
  const random = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
  return `evt_${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${random}`;
}

function summaryOf(e: CredentialEvent): string {
  const what = e.credential.type === 'api_key' ? `API key "${e.credential.name}"` : `OAuth ${e.credential.kind} for "${e.credential.name}"`;
  const prefix = e.credential.prefix ? ` (${e.credential.prefix}…)` : '';
  const verb = e.type === 'credential.issued' ? 'issued' : 'revoked';
  const reason = e.reason && e.type === 'credential.revoked' ? `: ${e.reason}` : '';
  return `${what}${prefix} ${verb} ${viaWords[e.via]}${reason}.`;
}

export function createSecurityLogService(
  deps: Pick<ModuleDeps, 'db' | 'clock'>,
  webhooks: { publish(accountId: string, event: WebhookEvent, options?: { within?: Kysely<DB> }): Promise<void> },
) {
  const { db, clock } = deps;
  return {
    /**
     * Emits a credential event: one security log row and one webhook delivery per endpoint.
     * `within`: the transaction that makes the change, so the event commits with it.
     */
    async credential(event: CredentialEvent, options: { within?: Kysely<DB> } = {}): Promise<{ id: string }> {
      const q = options.within ?? db;
      const at = clock.now();
      const id = eventId(at);
      const data = {
        account_id: event.accountId,
        credential: {
          id: event.credential.id,
          type: event.credential.type,
          kind: event.credential.kind,
          name: event.credential.name,
          prefix: event.credential.prefix ?? null,
          scopes: [...event.credential.scopes],
          team_id: event.credential.teamId ?? null,
        },
        via: event.via,
        reason: event.reason ?? null,
        occurred_at: at.toISOString(),
      };
      await q
        .insertInto('security_log')
        .values({ id, account_id: event.accountId, type: event.type, occurred_at: at, summary: summaryOf(event), data: JSON.stringify(data) })
        .execute();
      await webhooks.publish(event.accountId, { id, type: event.type, data }, options.within ? { within: options.within } : {});
      return { id };
    },

    /** The person's own security log, newest first. */
    async read(by: Caller, options: { limit?: number } = {}): Promise<SecurityLogEntry[]> {
      const limit = options.limit ?? 100;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new AppError('invalid_request', 'limit must be 1-500.');
      const rows = await db
        .selectFrom('security_log')
        .selectAll()
        .where('account_id', '=', by.account.id)
        .orderBy('occurred_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        occurredAt: new Date(r.occurred_at).toISOString(),
        summary: r.summary,
        data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
      }));
    },
  };
}

export type SecurityLog = ReturnType<typeof createSecurityLogService>;
