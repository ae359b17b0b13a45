// Agent registration (spec "States and transitions: Agent registration"; decisions.md
// "Credentials"): an agent names a person's email; the person approves or denies on the page the
// email links to (only that page's POST decides: mail scanners open links); the agent polls the
// claim endpoint as a device-flow client polls its token endpoint (RFC 8628 §3.4-3.5) and gets a
// registration key once. Registration keys are personal and hold public.read public.ai, never
// more. Nothing any caller sees depends on whether the email has an account.
import { timingSafeEqual } from 'node:crypto';
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import { addressGroup } from '../../../kernel/ip.ts';
import type { Mailer } from '../../../kernel/mail.ts';
import { type WindowLimit, withinWindowLimit } from '../../../kernel/window-limit.ts';
import { legacyScopes } from '../../../kernel/access.ts';
import type { AccountView } from '../../accounts/index.ts';
import type { ApiKeys } from '../api-keys/service.ts';
import { hashCredential, randomBase62 } from '../token.ts';
import * as repo from './repo.ts';
import { ClaimRefusal, parseRegistration } from './schema.ts';

/** Registrations per address and per client address in an hour, at most (mail bombing). */
const PER_EMAIL_PER_HOUR = 3;
const PER_CLIENT_PER_HOUR = 10;
/** RFC 8628 §3.5: on slow_down the interval grows by 5 seconds for this and later requests. */
const SLOW_DOWN_STEP = 5;

export const CLAIM_TOKEN_PREFIX = 'ctc_';
export const APPROVAL_CODE_PREFIX = 'cta_';

export interface RegistrationStarted {
  registration_id: string;
  claim_token: string;
  claim_uri: string;
  interval: number;
  expires_in: number;
}

/** What the approval page shows. */
export interface PendingApproval {
  email: string;
  agentName: string;
  agentUri: string | null;
  scopes: string[];
  expiresAt: Date;
}

const looksLike = (value: unknown, prefix: string): value is string =>
  typeof value === 'string' && value.length === prefix.length + 43 && value.startsWith(prefix) && /^[A-Za-z0-9]+$/.test(value.slice(prefix.length));

function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createAgentRegistration(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>,
  others: {
    keys: Pick<ApiKeys, 'create'>;
    mailer: Mailer;
    findOrCreateAccount(email: string): Promise<{ account: AccountView }>;
    markEmailVerified(accountId: string): Promise<void>;
  },
) {
  const { db, clock, config } = deps;

  async function openApproval(code: unknown) {
    if (!looksLike(code, APPROVAL_CODE_PREFIX)) return null;
    const row = await repo.findByApproveHash(db, hashCredential(code));
    if (row?.status !== 'pending' || new Date(row.expires_at) <= clock.now()) return null;
    return row;
  }

  return {
    /** POST /agent/auth: files the registration and emails the person; the same answer for any address. */
    async start(input: unknown, clientIp: string): Promise<RegistrationStarted> {
      const { email, agentName, agentUri } = parseRegistration(input);
      // Counted (and kept) per client address, an IPv6 one's /64.
      const from = addressGroup(clientIp);
      const now = clock.now();
      const id = `reg_${randomBase62(24)}`;
      const claimToken = `${CLAIM_TOKEN_PREFIX}${randomBase62(43)}`;
      const approvalCode = `${APPROVAL_CODE_PREFIX}${randomBase62(43)}`;
      const ttl = config.ttl.registration;
      const limit: WindowLimit = {
        keys: [`agent-registration.email:${email.toLowerCase()}`, `agent-registration.client:${from}`],
        windowSeconds: 3600,
        now,
        count: async (trx, since) => {
          const recent = await repo.countRecent(trx, email, from, since);
          return [
            { ...recent.byEmail, limit: PER_EMAIL_PER_HOUR },
            { ...recent.byClient, limit: PER_CLIENT_PER_HOUR },
          ];
        },
        message: 'Too many registrations were asked for recently from here or for this address; try again later.',
      };
      await withinWindowLimit(db, limit, (trx) =>
        repo.insert(trx, {
          id,
          email,
          agent_name: agentName,
          agent_uri: agentUri,
          claim_hash: hashCredential(claimToken),
          approve_hash: hashCredential(approvalCode),
          client_ip: from,
          interval_seconds: config.ttl.claimInterval,
          created_at: now,
          expires_at: new Date(now.getTime() + ttl * 1000),
        }),
      );
      const link = `${config.baseUrl}/agents/approve?code=${encodeURIComponent(approvalCode)}`;
      const minutes = Math.max(1, Math.round(ttl / 60));
      await others.mailer.send({
        to: email,
        subject: `Approve the agent "${agentName}" for Council Tracker?`,
        text: [
          `An AI agent named "${agentName}"${agentUri ? ` (${agentUri})` : ''} asks for a Council Tracker API key for ${email}.`,
          '',
          'With it the agent may read the public record of the city council and ask for AI answers about it.',
          'It cannot read or change your follows, positions or settings, and cannot send email.',
          '',
          'Open this link to approve or deny it:',
          '',
          link,
          '',
          `The request expires in ${minutes} minute${minutes === 1 ? '' : 's'}. If you did not ask for this, ignore this email: nothing is granted unless you approve.`,
        ].join('\n'),
      });
      return {
        registration_id: id,
        claim_token: claimToken,
        claim_uri: `${config.baseUrl}/agent/auth/claim`,
        interval: config.ttl.claimInterval,
        expires_in: ttl,
      };
    },

    /** The approval page's GET: what is asked, without deciding anything; null when the link is spent or expired. */
    async pendingApproval(code: unknown): Promise<PendingApproval | null> {
      const row = await openApproval(code);
      if (!row) return null;
      return { email: row.email, agentName: row.agent_name, agentUri: row.agent_uri, scopes: [...legacyScopes], expiresAt: new Date(row.expires_at) };
    },

    /** The approval page's POST. Approving verifies the address and makes the account if new. */
    async decide(code: unknown, decision: 'approve' | 'deny'): Promise<'approved' | 'denied'> {
      const row = await openApproval(code);
      if (!row) throw new AppError('invalid_request', 'This approval link has expired or was already used.');
      let accountId: string | null = null;
      if (decision === 'approve') {
        const { account } = await others.findOrCreateAccount(row.email);
        await others.markEmailVerified(account.id);
        accountId = account.id;
      }
      const to = decision === 'approve' ? 'approved' : 'denied';
      if (!(await repo.decide(db, row.id, to, accountId, clock.now())))
        throw new AppError('invalid_request', 'This approval link has expired or was already used.');
      return to;
    },

    /** POST /agent/auth/claim (RFC 8628 §3.4-3.5 polling, with this service's registration id). */
    async claim(input: { registration_id?: unknown; claim_token?: unknown }): Promise<{ api_key: string; scope: string }> {
      const wrong = () => new ClaimRefusal('invalid_grant', 'This registration_id and claim_token do not belong together.');
      if (typeof input.registration_id !== 'string' || !looksLike(input.claim_token, CLAIM_TOKEN_PREFIX)) throw wrong();
      const row = await repo.findById(db, input.registration_id);
      // Another registration's token (or none of ours) is refused and changes nothing.
      if (!row || !sameHash(row.claim_hash, hashCredential(input.claim_token))) throw wrong();
      const now = clock.now();
      if (row.status === 'claimed') throw new ClaimRefusal('invalid_grant', 'This registration was already claimed; its key was given once.');
      if (row.status === 'denied') throw new ClaimRefusal('access_denied', 'The person denied this registration.');
      if (row.status === 'pending') {
        if (new Date(row.expires_at) <= now) throw new ClaimRefusal('expired_token', 'The registration expired before the person approved it; start again.');
        const last = row.last_polled_at ? new Date(row.last_polled_at).getTime() : null;
        const tooSoon = last !== null && now.getTime() - last < row.interval_seconds * 1000;
        const interval = tooSoon ? row.interval_seconds + SLOW_DOWN_STEP : row.interval_seconds;
        await repo.polled(db, row.id, now, interval);
        if (tooSoon) throw new ClaimRefusal('slow_down', `Polling too fast: wait ${interval} seconds between claims.`, interval);
        throw new ClaimRefusal('authorization_pending', 'The person has not decided yet.', interval);
      }
      // Approved: the key is issued to exactly one claim.
      if (!row.account_id || !(await repo.claim(db, row.id, now)))
        throw new ClaimRefusal('invalid_grant', 'This registration was already claimed; its key was given once.');
      const created = await others.keys.create({
        accountId: row.account_id,
        name: `Agent: ${row.agent_name}`.slice(0, 200),
        scopes: [...legacyScopes],
        kind: 'registration',
        via: 'agent_registration',
      });
      await repo.setKey(db, row.id, created.id);
      return { api_key: created.key, scope: legacyScopes.join(' ') };
    },
  };
}

export type AgentRegistration = ReturnType<typeof createAgentRegistration>;
