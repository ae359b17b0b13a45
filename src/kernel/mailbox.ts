// An email address is read once, into one canonical mailbox, and that one form is what is stored,
// counted by limits and mailed. A mailer reads an address header as a list (RFC 5322 §3.4:
// `x,victim@example.org`, a group `g:victim@example.org;`, a display name `x<victim@example.org`),
// so a loose "something@something.tld" check let one request name a mailbox the limits never
// counted and the records never showed. Only a single addr-spec is accepted:
//   - local part: a dot-atom (RFC 5322 §3.2.3, §3.4.1) of ASCII atext, at most 64 octets
//     (RFC 5321 §4.5.3.1.1), without "%", "!" or "=?". Quoted strings, comments and obsolete
//     forms are refused: none is an address people type, and each is read differently by
//     different software.
//   - domain: a host name of at least two labels, letters, digits and hyphens (RFC 5321 §4.1.2
//     Domain, RFC 1123 §2.1), a Unicode one turned into its A-labels (RFC 5890 §2.3.2.1) by the
//     URL standard's domain-to-ASCII; no address literals (RFC 5321 §4.1.3), no all-numeric top
//     label, nothing after a trailing dot.
//   - at most 254 octets in all (RFC 5321 §4.5.3.1.3 path limit less its angle brackets).
// The canonical form is lower case throughout. RFC 5321 §2.4 lets a local part be case-sensitive,
// but accounts here are one per address whatever its case (the accounts_email index is on
// lower(email)), so one mailbox has one form.
import { domainToASCII } from 'node:url';
import { AppError } from './errors.ts';

const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;

const refused = (message: string) => new AppError('invalid_request', message);

function shown(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** The canonical mailbox of `value`, or 400 invalid_request saying why it is not one. */
export function parseMailbox(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw refused('Enter an email address.');
  const text = value.trim();
  const notOne = () => refused(`"${shown(text)}" is not a single email address: write it as name@example.org, without a name, list or brackets.`);
  if (text.length > MAX_ADDRESS) throw refused(`An email address is at most ${MAX_ADDRESS} characters.`);
  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@')) throw notOne();
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!DOT_ATOM.test(local)) throw notOne();
  // Legal atext, but read by some software as another mailbox: "%" and "!" as relay routing (RFC
  // 1123 §5.2.16, RFC 5321 Appendix C), "=?" as the start of an encoded word (RFC 2047 §5).
  if (/[%!]|=\?/.test(local)) throw notOne();
  if (local.length > MAX_LOCAL) throw refused(`The part before "@" is at most ${MAX_LOCAL} characters.`);
  // Only host-name characters (any script) go to domain-to-ASCII, which would pass "," or ";".
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(domain)) throw notOne();
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (ascii === '' || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) throw notOne();
  const mailbox = `${local.toLowerCase()}@${ascii}`;
  if (mailbox.length > MAX_ADDRESS) throw refused(`An email address is at most ${MAX_ADDRESS} characters.`);
  return mailbox;
}

/** The canonical mailbox, or null when `value` is none (a lookup that finds nothing). */
export function mailboxOrNull(value: unknown): string | null {
  try {
    return parseMailbox(value);
  } catch {
    return null;
  }
}
