// Outgoing mail (decisions.md, "Running it"): over SMTP with nodemailer when SMTP_URL is set,
// otherwise to the outbox — printed to the log and kept in memory so /dev/mailbox can show it
// outside production. In production the outbox logs mail with every link withheld: a log is read
// and kept by more people than the mail's recipient, and a sign-in, approval or unsubscribe link
// works for whoever holds it. Modules call `send`; none of them knows which way the mail went.
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from './config.ts';
import { parseMailbox } from './mailbox.ts';

export interface MailMessage {
  /** One mailbox; anything kernel/mailbox.ts does not read as exactly one is refused, never sent. */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header fields (List-Unsubscribe); names and values must be single lines. */
  headers?: Record<string, string>;
  /**
   * The Message-ID field, `<left@right>` (RFC 5322 §3.6.4), when the sender gives the message one of
   * its own: a message sent again after an unknown outcome carries the same one, so receiving
   * systems and mail clients can tell it is the same message. Otherwise the transport makes one.
   */
  messageId?: string;
}

export interface OutboxEntry extends MailMessage {
  id: string;
  from: string;
  sentAt: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** 'smtp' when mail leaves the machine, 'outbox' when it stays in the log and memory. */
  readonly transport: 'smtp' | 'outbox';
  /** Messages kept by the outbox, newest first (always empty with SMTP). */
  outbox(): OutboxEntry[];
  close(): Promise<void>;
}

// The outbox is a development aid, not storage: only the most recent messages are kept.
const OUTBOX_SIZE = 100;

/** Every URL in a text, down to its origin: what the link was for stays readable, the link itself is gone. */
function withholdLinks(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s<>"]+/g, (link) => {
    let origin = 'the service';
    try {
      origin = new URL(link).origin;
    } catch {}
    return `[a link to ${origin}, withheld from the log in production]`;
  });
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'nodeEnv'>, log: FastifyBaseLogger): Mailer {
  const from = config.mailFrom;
  if (config.smtpUrl) {
    const transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
        // As an object, not text: nodemailer reads an address text as a list (kernel/mailbox.ts).
        const to = { name: '', address: parseMailbox(message.to) };
        await transporter.sendMail({
          from,
          to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          ...(message.headers ? { headers: message.headers } : {}),
          ...(message.messageId ? { messageId: message.messageId } : {}),
        });
        // The address and subject only: the body may hold a sign-in link.
        log.info({ to: to.address, subject: message.subject }, 'mail sent');
      },
      outbox: () => [],
      async close() {
        transporter.close();
      },
    };
  }
  const kept: OutboxEntry[] = [];
  const production = config.nodeEnv === 'production';
  if (production) {
    log.warn(
      'NODE_ENV=production without SMTP_URL: mail is not sent, and the log shows it with its links withheld, so no one can sign in by email link; set SMTP_URL',
    );
  }
  return {
    transport: 'outbox',
    async send(message) {
      const entry: OutboxEntry = { id: crypto.randomUUID(), from, sentAt: new Date().toISOString(), ...message, to: parseMailbox(message.to) };
      kept.unshift(entry);
      kept.length = Math.min(kept.length, OUTBOX_SIZE);
      // Without SMTP the log is how a developer reads the mail, so the text is logged in full —
      // except in production, where the log must not hold live links.
      const text = production ? withholdLinks(entry.text) : entry.text;
      log.info({ mail: { to: entry.to, subject: entry.subject, text } }, 'mail kept in the outbox (no SMTP_URL)');
    },
    outbox: () => kept.map((m) => ({ ...m })),
    async close() {},
  };
}
