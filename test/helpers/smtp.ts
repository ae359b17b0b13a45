// A real SMTP server in the test process (the smtp-server package): the service's mailer talks
// SMTP to it exactly as to a production relay. Messages are kept as received, with the text
// body decoded so tests can read links out of it.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The Message-ID field as sent (RFC 5322 §3.6.4), or ''. */
  messageId: string;
  /** The text/plain body, transfer encoding undone. */
  text: string;
}

export interface SmtpReceiver {
  url: string;
  messages: ReceivedMail[];
  /** How many messages were refused (with 451, try again later) as asked by `refuseFirst`. */
  refused(): number;
  close(): Promise<void>;
}

function header(head: string, name: string): string {
  const m = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return m ? m[1]!.replace(/\r?\n[ \t]/g, ' ').trim() : '';
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function parseMail(raw: string): { subject: string; messageId: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = header(head, 'Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
  else if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { subject: header(head, 'Subject'), messageId: header(head, 'Message-ID'), text: text.replace(/\r\n/g, '\n') };
}

/**
 * `refuseFirst`: answer the first N messages 451 (a relay that is busy), to exercise retries.
 * `onAccept`: called with each message kept, before the sender is told it was accepted.
 */
export async function startSmtpReceiver(options: { refuseFirst?: number; onAccept?: (mail: ReceivedMail) => void } = {}): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refused < (options.refuseFirst ?? 0)) {
          refused++;
          return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        };
        messages.push(mail);
        options.onAccept?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
