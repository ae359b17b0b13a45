// API key resource (spec "Resources: API key") and the checks of its inputs. Each check throws
// 400 invalid_request naming the field, so the CLI and the dashboard report the same thing.
import { AppError } from '../../../kernel/errors.ts';
import { canonicalIpRange } from '../../../kernel/ip.ts';
import { parseIsoTimestamp } from '../../../kernel/iso-time.ts';
import { allScopes, isScope, type Scope } from '../../../kernel/access.ts';

export type KeyKind = 'scoped' | 'registration' | 'legacy';

export interface ApiKeyView {
  id: string;
  /** The first 8 characters of the value, to recognise it in lists. */
  prefix: string;
  name: string;
  owner: { type: 'personal' } | { type: 'team'; teamId: string; teamName: string };
  createdBy: { accountId: string; email: string };
  kind: KeyKind;
  /** Scopes as granted at creation (legacy keys: public.read public.ai). */
  scopes: Scope[];
  allowedIps: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
}

const invalid = (message: string) => new AppError('invalid_request', message);

export function parseKeyName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('name is required.');
  const name = value.trim();
  if (name.length > 200) throw invalid('name must be at most 200 characters.');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('name must not contain control characters.');
  return name;
}

/** Known scope names, without repeats. Whether they fit the key is checked by policy. */
export function parseScopes(values: readonly unknown[]): Scope[] {
  if (values.length === 0) throw invalid('scopes: at least one scope is required.');
  const out: Scope[] = [];
  for (const v of values) {
    if (typeof v !== 'string' || !isScope(v)) throw invalid(`unknown scope "${String(v)}"; scopes are ${allScopes.join(', ')}.`);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

export function parseExpiry(value: unknown, now: Date): Date | null {
  if (value === undefined || value === null) return null;
  const at = value instanceof Date ? value : typeof value === 'string' ? parseIsoTimestamp(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw invalid(`expiry must be an ISO 8601 date-time such as 2030-01-31T00:00:00Z; got "${String(value)}".`);
  }
  if (at.getTime() <= now.getTime()) throw invalid('expiry must be in the future.');
  return at;
}

const MAX_ALLOWED_IPS = 100;

/** Addresses and CIDR ranges, validated and stored in canonical form; [] means any address. */
export function parseAllowedIps(values: readonly unknown[]): string[] {
  if (values.length > MAX_ALLOWED_IPS) throw invalid(`allowed IPs: at most ${MAX_ALLOWED_IPS} entries.`);
  const out: string[] = [];
  for (const v of values) {
    const canonical = typeof v === 'string' ? canonicalIpRange(v) : null;
    if (!canonical) throw invalid(`allowed IPs: "${String(v)}" is not an IPv4 or IPv6 address or CIDR range.`);
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

const badCursor = () => invalid('The cursor is malformed; pass meta.nextCursor from the previous page unchanged.');

/** Opaque keyset cursor of a key list: the last key's creation time and id. */
export function encodeKeyCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify({ c: createdAt.toISOString(), i: id })).toString('base64url');
}

export function decodeKeyCursor(raw: string | undefined): { createdAt: Date; id: string } | null {
  if (raw === undefined) return null;
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) throw badCursor();
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    const at = typeof v?.c === 'string' ? parseIsoTimestamp(v.c) : null;
    if (at && !Number.isNaN(at.getTime()) && typeof v.i === 'string' && v.i.length <= 200) return { createdAt: at, id: v.i };
  } catch {
    // falls through to the 400 below
  }
  throw badCursor();
}
