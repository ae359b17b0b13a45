// The shape any JSON value the service accepts must have, checked before anything walks it
// recursively (a schema check, a fingerprint, JSON.stringify): nesting, number of values and key
// length, and no prototype keys. Iterative, so a value nested a million deep costs a loop, not
// the stack. Request bodies are checked as they are parsed (surfaces/http/body-parsers.ts); every
// validation of an operation's input checks it again (kernel/schema.ts), whoever the caller.
import { AppError } from './errors.ts';

/** Field, parameter and JSON key names of this service are at most about 20 characters. */
export const MAX_KEY_LENGTH = 128;
/** The deepest body taken is a dashboard layout, 4 levels (layout, widgets, widget, settings). */
export const MAX_JSON_DEPTH = 32;
/** The largest bodies: a layout of 200 widgets (~2,800 values), a PUT of 500 positions (~2,000). */
export const MAX_JSON_VALUES = 10_000;

const refuse = (message: string) => new AppError('invalid_request', message);

/**
 * Refuses a parsed JSON value past the caps. Iterative, so a value nested a million deep costs a
 * loop, not the stack. Also refuses the prototype keys that Fastify's parser (secure-json-parse)
 * refuses in bodies, for JSON parsed elsewhere. It runs on every JSON body, so it walks without
 * making anything per value (no key or child arrays, no pairs): before, a 350-byte MCP message
 * left 3 KB of garbage here, a sixteenth of what its request allocated (issue 23).
 */
export function checkJson(value: unknown, what: string): void {
  if (value === null || typeof value !== 'object') return;
  // Objects still to walk and their depths, side by side.
  const pending: object[] = [value];
  const depths: number[] = [1];
  let values = 1;
  while (pending.length > 0) {
    const v = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_JSON_DEPTH) throw refuse(`${what} nests deeper than ${MAX_JSON_DEPTH} levels.`);
    if (Array.isArray(v)) {
      values += v.length;
      if (values > MAX_JSON_VALUES) throw refuse(`${what} has more than ${MAX_JSON_VALUES} values.`);
      for (const child of v) {
        if (child !== null && typeof child === 'object') {
          pending.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const record = v as Record<string, unknown>;
    // The caps first, then the keys, as a whole object at a time.
    for (const key in record) if (Object.hasOwn(record, key)) values++;
    if (values > MAX_JSON_VALUES) throw refuse(`${what} has more than ${MAX_JSON_VALUES} values.`);
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (key.length > MAX_KEY_LENGTH) throw refuse(`${what} has a key longer than ${MAX_KEY_LENGTH} characters.`);
      const child = record[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))) {
        throw refuse(`${what} contains a forbidden prototype property.`);
      }
      // Walked after this object's keys are all checked, so the refusals come in the same order.
      if (child !== null && typeof child === 'object') {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
}
