// The email of an alert: what changed on a follow, each change with a link to its public page,
// how to change the alert, and the unsubscribe link — also as the List-Unsubscribe and
// List-Unsubscribe-Post headers, so mail clients offer one-click unsubscribe (RFC 8058 §3.1:
// an https URI in List-Unsubscribe, and exactly `List-Unsubscribe=One-Click` in -Post).
import type { MailMessage } from '../../kernel/mail.ts';
import type { Frequency, StoredItem } from './tables.ts';

export interface AlertMail {
  to: string;
  followLabel: string;
  frequency: Frequency | null;
  items: readonly StoredItem[];
  baseUrl: string;
  unsubscribeUrl: string;
  /** Where the person changes this alert: the team follow's page, or the v2 route of a personal follow. */
  manage: { url: string; kind: 'page' | 'api' };
  /** The delivery's own Message-ID (alertMessageId): every attempt at one delivery sends the same message. */
  messageId: string;
}

/**
 * The Message-ID of an alert delivery: `<alert.{delivery id}@{the service's host}>` (RFC 5322
 * §3.6.4: unique to the message, the right side naming the host that made it). A delivery sent
 * again because its outcome was lost carries the same one, so the receiving side can tell.
 */
export function alertMessageId(deliveryId: string, baseUrl: string): string {
  return `<alert.${deliveryId}@${new URL(baseUrl).hostname}>`;
}

/** Keeps header and subject text on one line (no header injection through a label). */
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

export function composeAlertMail(m: AlertMail): MailMessage {
  const n = m.items.length;
  const what = `${n} change${n === 1 ? '' : 's'}`;
  const label = oneLine(m.followLabel).slice(0, 120);
  const subject = m.frequency === 'daily' || m.frequency === 'weekly' ? `Your ${m.frequency} alert: ${label} (${what})` : `Alert: ${label} (${what})`;
  const lines = m.items.map((i) => `- ${oneLine(i.title)}${i.date ? ` (${i.date})` : ''}\n  ${m.baseUrl}${i.path}`);
  const text = [
    `What changed on "${label}", which you follow on Council Tracker:`,
    '',
    ...lines,
    '',
    m.manage.kind === 'page' ? `Change this alert: ${m.manage.url}` : `Change this alert through the API: PUT ${m.manage.url}`,
    `Stop these emails (no sign-in needed): ${m.unsubscribeUrl}`,
    '',
  ].join('\n');
  return {
    to: m.to,
    subject,
    text,
    messageId: m.messageId,
    headers: {
      'List-Unsubscribe': `<${m.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
