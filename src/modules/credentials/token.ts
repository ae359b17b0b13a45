// Credential values: prefixed random strings, stored only as SHA-256 (decisions.md, "Credentials").
// A hash, not a slow KDF: the values carry 190 bits of randomness, so there is nothing to guess,
// and the check runs on every request.
import { hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes((length - out.length) * 2)) {
      // 248 = 4 × 62: bytes above it are skipped so every character is equally likely.
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export function hashCredential(value: string): Buffer {
  // The one-shot form: no Hash object per request.
  return hash('sha256', value, 'buffer');
}

/**
 * The same SHA-256 as base64 text: what the credential check keeps a presented value's row under,
 * so no Buffer is made for a value whose row is kept.
 */
export function credentialId(value: string): string {
  return hash('sha256', value, 'base64');
}

export const API_KEY_PREFIX = 'ctk_';
/** How many leading characters of a value are kept to show in lists. */
export const SHOWN_PREFIX_LENGTH = 8;

export function newApiKeyValue(): string {
  return `${API_KEY_PREFIX}${randomBase62(32)}`;
}

const keyValues = new RegExp(`${API_KEY_PREFIX}[0-9A-Za-z]{32}`, 'g');

/**
 * A text with every API key value in it replaced by its shown prefix: what may be kept at rest (a
 * stored idempotent answer of POST /me/keys or /team/keys), since a value is stored only as its hash.
 */
export function withholdKeyValues(text: string): string {
  return text.replace(keyValues, (value) => `${value.slice(0, SHOWN_PREFIX_LENGTH)}… (shown once; not kept)`);
}
