// The parsers of what a request carries: HTML forms, JSON bodies and query strings. Parsing runs
// before any credential, session or CSRF check, so anyone can make the service parse anything up
// to the 1 MiB body limit. Each parser therefore runs in time linear in its input and refuses, as
// 400 invalid_request naming the cap, what no real client of this service sends: too many fields
// or values, one name repeated too often, over-long names, JSON nested too deep.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../kernel/errors.ts';
import { checkJson, MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_KEY_LENGTH } from '../../kernel/json-shape.ts';

/** A form or query: a repeated name (checkboxes, a multi-select) becomes an array. */
export type FormBody = Record<string, string | string[]>;

export { MAX_KEY_LENGTH };
/** A form has a handful of fields plus at most one multi-select (50 alderpersons, ~20 scopes). */
export const MAX_FORM_FIELDS = 200;
/** The longest multi-select lists the 50 alderpersons. */
export const MAX_FORM_REPEATS = 100;
/** The longest query of any page or route has about ten parameters. */
export const MAX_QUERY_PARAMS = 100;
/** No query parameter takes a list: a repeat is at most a client's slip. */
export const MAX_QUERY_REPEATS = 20;
export { MAX_JSON_DEPTH, MAX_JSON_VALUES };

interface UrlEncodedCaps {
  what: string;
  noun: string;
  entries: number;
  repeats: number;
}
const formCaps: UrlEncodedCaps = { what: 'The form', noun: 'field', entries: MAX_FORM_FIELDS, repeats: MAX_FORM_REPEATS };
const queryCaps: UrlEncodedCaps = { what: 'The query string', noun: 'parameter', entries: MAX_QUERY_PARAMS, repeats: MAX_QUERY_REPEATS };

const refuse = (message: string) => new AppError('invalid_request', message);

function parseUrlEncoded(text: string, caps: UrlEncodedCaps): FormBody {
  const { what, noun } = caps;
  // Count the separators before decoding anything: 350,000 empty fields are refused unbuilt.
  let separators = 0;
  for (let i = text.indexOf('&'); i >= 0 && separators < caps.entries; i = text.indexOf('&', i + 1)) separators++;
  if (separators >= caps.entries) throw refuse(`${what} has more than ${caps.entries} ${noun}s.`);
  const out: FormBody = Object.create(null);
  // Nothing to decode (most requests carry no query): a URLSearchParams made for it cost 1 µs.
  if (text.length === 0) return out;
  for (const [name, value] of new URLSearchParams(text)) {
    if (name.length > MAX_KEY_LENGTH) throw refuse(`${what} has a ${noun} name longer than ${MAX_KEY_LENGTH} characters.`);
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else if (typeof prev === 'string') out[name] = [prev, value];
    else if (prev.length >= caps.repeats) throw refuse(`${what} repeats the ${noun} "${name}" more than ${caps.repeats} times.`);
    // Appending in place keeps a repeated name linear (a copy per value was quadratic).
    else prev.push(value);
  }
  return out;
}

/** An application/x-www-form-urlencoded body. */
export function parseForm(text: string): FormBody {
  return parseUrlEncoded(text, formCaps);
}

/** A query string (without the "?"). */
export function parseQuery(text: string): FormBody {
  return parseUrlEncoded(text, queryCaps);
}

const queryRefusal = Symbol('query refusal');

/**
 * Fastify's `querystringParser`. The router calls it while matching the route, where a throw
 * would escape every error handler and end the process, so a refused query becomes an empty one
 * carrying the refusal, which the URL check on request throws (surfaces/http/guard.ts
 * refuseUnsafeUrl: after authentication on the JSON APIs, so the refusal carries the limit headers).
 */
export function querystringParser(text: string): FormBody {
  try {
    return parseQuery(text);
  } catch (err) {
    return Object.assign(Object.create(null), { [queryRefusal]: err });
  }
}

/** JSON typed into a form field (a dashboard layout), with the caps of JSON bodies. */
export function parseJsonText(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse(`${what} is not valid JSON.`);
  }
  checkJson(value, what);
  return value;
}

/** The refusal a capped query string carries, if it was refused. */
export function queryRefusalOf(request: FastifyRequest): AppError | undefined {
  return (request.query as Record<symbol, AppError> | undefined)?.[queryRefusal];
}

/**
 * Parses bodies of `contentType` as JSON with the caps: Fastify 5's own parser with its defaults
 * (a body with __proto__, or constructor.prototype, is refused: secure-json-parse "error"), then
 * the caps checked on its result, before any hook sees it. Every JSON media type a route accepts
 * (application/json everywhere, A2A's application/a2a+json) is read by this one parser.
 */
export function useJsonParser(app: FastifyInstance, contentType: string): void {
  const fastifyJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body, done) => {
    fastifyJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      try {
        checkJson(value, 'The JSON body');
      } catch (refusal) {
        return done(refusal as AppError, undefined);
      }
      done(null, value);
    });
  });
}

/** Installs the capped JSON body parser on the root instance. */
export function useBodyParsers(app: FastifyInstance): void {
  useJsonParser(app, 'application/json');
}
