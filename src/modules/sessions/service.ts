// Sign-in by email link and website sessions. A link is single use, expires after
// SIGNIN_LINK_TTL_SECONDS and is stored hashed; only a POST uses it (mail scanners open links with
// GET). Using it creates the account if new and starts a session with a sliding expiry.
import type { Kysely } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { addressGroup } from '../../kernel/ip.ts';
import type { Mailer } from '../../kernel/mail.ts';
import { parseMailbox } from '../../kernel/mailbox.ts';
import { holdWindowSlot, type WindowLimit, withinWindowLimit } from '../../kernel/window-limit.ts';
import type { Accounts, AccountView } from '../accounts/index.ts';
import { invitationMail } from './invitation-mail.ts';
import * as repo from './repo.ts';
import { csrfTokenFor, hashToken, looksLikeToken, newToken, verifyCsrf } from './tokens.ts';

/** Sessions last 30 days from their last use. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
// The expiry moves forward at most once an hour, so browsing is not a write per page.
const SLIDE_EVERY_MS = 3600 * 1000;
/**
 * Sign-in links one mailbox may be sent in an hour: a retry, a second device, a slow mail server —
 * more is mail bombing. Per client address the limit is SIGNIN_PER_CLIENT_PER_HOUR (50), sized for
 * an office where everyone signs in behind one address; sessions last 30 days, so a person signs
 * in rarely.
 */
const PER_MAILBOX_PER_HOUR = 5;
const WINDOW_SECONDS = 3600;

export interface SessionInfo {
  id: string;
  account: { id: string; email: string; name: string | null };
  createdAt: Date;
  expiresAt: Date;
  /** True when this lookup moved the expiry forward: the cookie should be sent again. */
  extended: boolean;
  csrfToken: string;
}

export interface StartedSession {
  token: string;
  expiresAt: Date;
  account: AccountView;
  created: boolean;
}

export function createSessionsService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config' | 'log'>, others: { accounts: Accounts; mailer: Mailer }) {
  const { db, clock, config } = deps;
  const { accounts, mailer } = others;
  const linkTtlMs = config.ttl.signinLink * 1000;

  async function findOrCreateAccount(email: string): Promise<{ account: AccountView; created: boolean }> {
    const existing = await accounts.findByEmail(email);
    if (existing) return { account: existing, created: false };
    try {
      return { account: await accounts.create({ email }), created: true };
    } catch (err) {
      // Two links for the same new address used at once: the other one made the account.
      if (err instanceof AppError && err.code === 'conflict') {
        const again = await accounts.findByEmail(email);
        if (again) return { account: again, created: false };
      }
      throw err;
    }
  }

  async function start(accountId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken('cts_');
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
    await repo.deleteExpiredSessionsOf(db, accountId, now);
    await repo.insertSession(db, { id: `ses_${crypto.randomUUID()}`, account_id: accountId, hash: hashToken(token), now, expires_at: expiresAt });
    return { token, expiresAt };
  }

  /**
   * A new sign-in link for `email`, asked for by `from` (a client address group, or for an
   * invitation the inviting account), with the limit its row counts against: at most 5 an hour
   * per mailbox, SIGNIN_PER_CLIENT_PER_HOUR per asker. `returnTo` (a path) is where the confirmed
   * sign-in goes (surfaces/web/return-to.ts checks it again).
   */
  async function newLink(q: Kysely<DB>, email: string, from: string, returnTo?: string) {
    const now = clock.now();
    await repo.deleteExpiredLinks(q, now, new Date(now.getTime() - WINDOW_SECONDS * 1000));
    const token = newToken('ctl_');
    const limit: WindowLimit = {
      keys: [`signin.email:${email}`, `signin.client:${from}`],
      windowSeconds: WINDOW_SECONDS,
      now,
      count: async (trx, since) => {
        const recent = await repo.countRecentLinks(trx, email, from, since);
        return [
          { ...recent.byEmail, limit: PER_MAILBOX_PER_HOUR },
          { ...recent.byClient, limit: config.signin.perClientPerHour },
        ];
      },
      message: 'Several sign-in links were asked for recently for this address or from your network; use one you have, or try again later.',
    };
    const row = {
      id: `sil_${crypto.randomUUID()}`,
      email,
      hash: hashToken(token),
      expires_at: new Date(now.getTime() + linkTtlMs),
      client_ip: from,
      created_at: now,
    };
    // `code`, not `token`: the API refuses credential-named query parameters everywhere.
    const back = returnTo ? `&return=${encodeURIComponent(returnTo)}` : '';
    return { limit, row, url: `${config.baseUrl}/signin/verify?code=${encodeURIComponent(token)}${back}` };
  }

  function linkLifetime(): string {
    const minutes = Math.max(1, Math.round(config.ttl.signinLink / 60));
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }

  /**
   * Someone added to a team by email gets a sign-in link that lands on the team's dashboard, in the
   * transaction that adds them: it counts against that mailbox's sign-in links and against the
   * inviting person's (as one client), so adding cannot mail bomb an address; over either, 429 and
   * no one is added. The mail goes after the commit.
   */
  accounts.onMemberAdded(async (trx, added) => {
    const dashboard = `/dashboard/${added.team.id}`;
    const { limit, row, url } = await newLink(trx, added.account.email, `account:${added.by.id}`, dashboard);
    await holdWindowSlot(trx, {
      ...limit,
      message: `Several sign-in links or invitations went to ${added.account.email} in the last hour, or you sent many invitations; try again later.`,
    });
    await repo.insertLink(trx, row);
    return () => mailer.send(invitationMail(added, url, `${config.baseUrl}/signin?return=${encodeURIComponent(dashboard)}`, linkLifetime()));
  });

  return {
    /**
     * Emails a sign-in link to the canonical mailbox of `rawEmail` (kernel/mailbox.ts), asked for
     * from `clientIp`. The answer is the same whether or not an account exists; over a limit (per
     * mailbox, per client address: an IPv6 one's /64) it is 429 and nothing is sent or stored.
     * Returns the mailbox the link went to.
     */
    async requestLink(rawEmail: unknown, clientIp: string): Promise<string> {
      const email = parseMailbox(rawEmail);
      const { limit, row, url } = await newLink(db, email, addressGroup(clientIp));
      await withinWindowLimit(db, limit, (trx) => repo.insertLink(trx, row));
      await mailer.send({
        to: email,
        subject: 'Your Council Tracker sign-in link',
        text: [
          'Open this link to sign in to Council Tracker:',
          '',
          url,
          '',
          `The link works once and expires in ${linkLifetime()}.`,
          'If you did not ask to sign in, ignore this email: nothing happens until the link is used.',
        ].join('\n'),
      });
      return email;
    },

    /** Whether a link can still be used, without using it (the confirm page's GET). */
    async checkLink(token: unknown): Promise<{ email: string } | null> {
      if (!looksLikeToken(token, 'ctl_')) return null;
      return repo.findOpenLink(db, hashToken(token), clock.now());
    },

    /** Uses the link once: creates the account if new, starts a session. */
    async useLink(token: unknown): Promise<StartedSession> {
      const invalid = new AppError('invalid_request', 'This sign-in link has expired or was already used. Ask for a new one.');
      if (!looksLikeToken(token, 'ctl_')) throw invalid;
      const link = await repo.takeLink(db, hashToken(token), clock.now());
      if (!link) throw invalid;
      const { account, created } = await findOrCreateAccount(link.email);
      // Using the link proves the person reads mail at this address.
      await accounts.markEmailVerified(account.id);
      const session = await start(account.id);
      return { ...session, account, created };
    },

    /** The session behind a cookie value, sliding its expiry; null when unknown or expired. */
    async resolve(token: unknown): Promise<SessionInfo | null> {
      if (!looksLikeToken(token, 'cts_')) return null;
      const now = clock.now();
      const row = await repo.findSession(db, hashToken(token), now);
      if (!row) return null;
      let expiresAt = new Date(row.expires_at);
      let extended = false;
      if (now.getTime() - new Date(row.last_seen_at).getTime() >= SLIDE_EVERY_MS) {
        expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
        await repo.extendSession(db, row.id, now, expiresAt);
        extended = true;
      }
      return {
        id: row.id,
        account: { id: row.account_id, email: row.email, name: row.name },
        createdAt: new Date(row.created_at),
        expiresAt,
        extended,
        csrfToken: csrfTokenFor(token),
      };
    },

    /** Ends this session only. */
    async signOut(token: unknown): Promise<void> {
      if (looksLikeToken(token, 'cts_')) await repo.deleteSessionByHash(db, hashToken(token));
    },

    /** Ends every session of the account (every browser); returns how many ended. */
    async signOutEverywhere(accountId: string): Promise<number> {
      return repo.deleteSessionsOfAccount(db, accountId);
    },

    async countSessions(accountId: string): Promise<number> {
      return repo.countSessionsOfAccount(db, accountId, clock.now());
    },

    /** The account of a verified address, made if new (agent registration approval). */
    findOrCreateAccount,
    csrfToken: csrfTokenFor,
    verifyCsrf,
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
