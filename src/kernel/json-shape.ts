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
 * refuses in bodies, for JSON parsed elsewhere.
 */
export function checkJson(value: unknown, what: string): void {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 1;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) throw refuse(`${what} nests deeper than ${MAX_JSON_DEPTH} levels.`);
    const keys = Array.isArray(v) ? null : Object.keys(v);
    const children: unknown[] = keys ? keys.map((k) => (v as Record<string, unknown>)[k]) : (v as unknown[]);
    values += children.length;
    if (values > MAX_JSON_VALUES) throw refuse(`${what} has more than ${MAX_JSON_VALUES} values.`);
    for (const key of keys ?? []) {
      if (key.length > MAX_KEY_LENGTH) throw refuse(`${what} has a key longer than ${MAX_KEY_LENGTH} characters.`);
      const child = (v as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))) {
        throw refuse(`${what} contains a forbidden prototype property.`);
      }
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
}
