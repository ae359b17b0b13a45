// Pure rules of idempotent writes: key validity, what makes two requests "the same", how long an
// answer is kept, and which headers belong to the answer.
import { createHash } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';

/** Spec "Limits": an answer is replayed for 24 hours. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const MAX_KEY_LENGTH = 255;

/** Spec "Limits": 1 to 255 characters. Length counts characters, not bytes. */
export function checkKey(raw: string): string {
  const length = [...raw].length;
  if (length < 1 || length > MAX_KEY_LENGTH) {
    throw new AppError('invalid_request', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters long, got ${length}.`);
  }
  return raw;
}

/** Twice the nesting the JSON body parser lets through (32): no accepted body is refused here. */
export const MAX_CANONICAL_DEPTH = 64;

/**
 * JSON.stringify recurses, so a value nested some thousands deep would overflow the stack (a 500).
 * Bodies are capped where they are parsed; this walk, iterative and depth-first, keeps the
 * fingerprint safe for any other value too, a cyclic one included (its depth has no end).
 */
function refuseDeepNesting(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth > MAX_CANONICAL_DEPTH) throw new AppError('invalid_request', `The request body nests deeper than ${MAX_CANONICAL_DEPTH} levels.`);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
}

/** JSON with object keys sorted at every depth, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  refuseDeepNesting(value);
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || Buffer.isBuffer(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** What "the same request" means (decisions.md "Errors", 422): who sends it, method, path with query, and body. */
export function requestFingerprint(method: string, url: string, body: unknown, accountId: string): string {
  return createHash('sha256')
    .update(`${accountId}\n${method.toUpperCase()}\n${url}\n`)
    .update(typeof body === 'string' || Buffer.isBuffer(body) ? body : canonicalJson(body))
    .digest('hex');
}

/** Headers that describe the answer; rate-limit and request-id headers belong to each delivery. */
export const keptHeaders = ['content-type', 'cache-control', 'location', 'etag', 'last-modified', 'link', 'content-language'];

/**
 * Whether an answer is kept for replay. A 5xx is not (decisions.md): the key is released so a
 * retry runs again. Neither is a 429: it says "not now", not what the request does.
 */
export function isStored(status: number): boolean {
  return status < 500 && status !== 429;
}
