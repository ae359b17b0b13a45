// The request parsers under hostile input, on a real listening server: a form, a JSON body or a
// query string as large as the service lets in, shaped as no real client would send it, is
// refused with 400 in the surface's own error shape, and an ordinary request sent alongside is
// answered meanwhile (one request must never stall the service). Then each cap on its own: at the
// cap accepted, one past it refused.
import assert from 'node:assert/strict';
import { maxHeaderSize } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { MAX_BODY_BYTES } from '../../../src/app.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import {
  MAX_FORM_FIELDS,
  MAX_FORM_REPEATS,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  MAX_KEY_LENGTH,
  MAX_QUERY_PARAMS,
  MAX_QUERY_REPEATS,
  parseForm,
  parseJsonText,
  parseQuery,
} from '../../../src/surfaces/http/body-parsers.ts';
import { makeTeam, startWorld, type World } from '../v2/team-helpers.ts';

let w: World;
let base: string;
let auth: Record<string, string>;
before(async () => {
  w = await startWorld();
  const team = await makeTeam(w.t, ['team_data', 'analytics'], ['public.read']);
  auth = { authorization: `Bearer ${team.keys.owner}` };
  base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await w.t.close();
});

/** `head`, then `unit` repeated, then `tail`, padded with `pad` to exactly the body limit. */
function atBodyLimit(head: string, unit: string, tail: string, pad: string): string {
  const n = Math.floor((MAX_BODY_BYTES - head.length - tail.length) / unit.length);
  const body = head + unit.repeat(n) + tail;
  return body + pad.repeat(MAX_BODY_BYTES - body.length);
}

/** `head`, arrays nested as deep as the body limit allows, then `tail`. */
function deepAtBodyLimit(head: string, tail: string): string {
  const depth = Math.floor((MAX_BODY_BYTES - head.length - tail.length) / 2);
  const body = `${head}${'['.repeat(depth)}${']'.repeat(depth)}${tail}`;
  return body + ' '.repeat(MAX_BODY_BYTES - body.length);
}

/** A path whose query fills the request line up to what Node accepts (16 KiB of headers). */
function atUrlLimit(path: string, unit: string): string {
  const room = maxHeaderSize - 1024 - path.length - 1;
  return `${path}?${unit.repeat(Math.floor(room / unit.length))}`;
}

/** Sends the hostile request and, while it is on its way, an ordinary one; both answers. */
async function alongside(hostile: () => Promise<Response>, ordinary: () => Promise<Response>): Promise<[Response, Response]> {
  return Promise.all([hostile(), ordinary()]);
}

async function expectV1Error(res: Response, message: RegExp) {
  assert.equal(res.status, 400);
  const body = (await res.json()) as any;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'detail']);
  assert.equal(body.code, 'invalid_request');
  assert.match(body.detail, message);
}

async function expectV2Error(res: Response, message: RegExp) {
  assert.equal(res.status, 400);
  const body = (await res.json()) as any;
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, 'invalid_request');
  assert.match(body.error.message, message);
}

async function expectHtmlError(res: Response, message: RegExp) {
  assert.equal(res.status, 400);
  assert.match(String(res.headers.get('content-type')), /text\/html/);
  assert.match(await res.text(), message);
}

describe('hostile input at the size limit is refused while other requests are answered', { timeout: 60_000 }, () => {
  test('a form of repeated field names (1 MiB) on a web page: 400 page, the sign-in page meanwhile', async () => {
    const form = atBodyLimit('', 'a=&', '', 'a');
    assert.equal(form.length, MAX_BODY_BYTES);
    const [refused, answered] = await alongside(
      () => fetch(`${base}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
      () => fetch(`${base}/signin`),
    );
    await expectHtmlError(refused, new RegExp(`The form has more than ${MAX_FORM_FIELDS} fields`));
    assert.equal(answered.status, 200);
    assert.match(await answered.text(), /<form method="post" action="\/signin">/);
  });

  test('JSON bodies (1 MiB) on a v2 write with Idempotency-Key: 400 in the v2 shape, a v2 read meanwhile', async () => {
    const hostile: [string, RegExp][] = [
      [deepAtBodyLimit('{"positions":', '}'), new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`)],
      [atBodyLimit('{"positions":[', '0,', '0]}', ' '), new RegExp(`more than ${MAX_JSON_VALUES} values`)],
      [atBodyLimit('{"', 'k', '":[]}', ' '), new RegExp(`key longer than ${MAX_KEY_LENGTH} characters`)],
    ];
    for (const [body, message] of hostile) {
      assert.equal(body.length, MAX_BODY_BYTES);
      const [refused, answered] = await alongside(
        () =>
          fetch(`${base}/api/v2/team/positions`, {
            method: 'PUT',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body,
          }),
        () => fetch(`${base}/api/v2/team/positions`, { headers: auth }),
      );
      await expectV2Error(refused, message);
      assert.equal(answered.status, 200);
      assert.deepEqual(await answered.json(), { data: [], meta: { nextCursor: null } });
    }
  });

  test('a dashboard layout with deeply nested settings is 400 on v2, with or without Idempotency-Key', async () => {
    const made = await fetch(`${base}/api/v2/team/dashboards`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Deep"}',
    });
    assert.equal(made.status, 201);
    const { id } = (await made.json()) as { id: string };
    const depth = 100_000;
    const settings = `{"recordNumber":"O2026-1","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const body = `{"layout":{"widgets":[{"id":"w1","kind":"roll_call","position":{"x":0,"y":0},"size":{"w":1,"h":1},"settings":${settings}}]}}`;
    for (const extra of [{}, { 'idempotency-key': crypto.randomUUID() }]) {
      const res = await fetch(`${base}/api/v2/team/dashboards/${id}`, {
        method: 'PATCH',
        headers: { ...auth, ...extra, 'content-type': 'application/json' },
        body,
      });
      await expectV2Error(res, new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`));
    }
  });

  test('query strings as long as Node accepts: 400 in the v1 shape and as a page, a v1 read meanwhile', async () => {
    const hostile: [string, (res: Response) => Promise<void>][] = [
      [atUrlLimit('/api/v1/matters', 'limit=1&'), (res) => expectV1Error(res, new RegExp(`more than ${MAX_QUERY_PARAMS} parameters`))],
      [atUrlLimit('/api/v1/matters', 'a&'), (res) => expectV1Error(res, new RegExp(`more than ${MAX_QUERY_PARAMS} parameters`))],
      [`${atUrlLimit('/api/v1/matters', 'k')}=1`, (res) => expectV1Error(res, new RegExp(`parameter name longer than ${MAX_KEY_LENGTH} characters`))],
      [atUrlLimit('/signin', 'a&'), (res) => expectHtmlError(res, new RegExp(`more than ${MAX_QUERY_PARAMS} parameters`))],
    ];
    for (const [url, expect] of hostile) {
      const [refused, answered] = await alongside(
        () => fetch(`${base}${url}`, { headers: auth }),
        () => fetch(`${base}/api/v1/matters?limit=1`, { headers: auth }),
      );
      await expect(refused);
      assert.equal(answered.status, 200);
      assert.equal(((await answered.json()) as { data: unknown[] }).data.length, 1);
    }
  });
});

const refusal = (message: string) => (err: unknown) => err instanceof AppError && err.code === 'invalid_request' && err.message.includes(message);
const joined = (n: number, entry: (i: number) => string) => Array.from({ length: n }, (_, i) => entry(i)).join('&');

describe('each cap: at the cap accepted, one past it refused', () => {
  test('a form keeps its meaning: repeated names become arrays, values are decoded', () => {
    assert.deepEqual({ ...parseForm('a=1&b=x+y%21&a=2&a=3') }, { a: ['1', '2', '3'], b: 'x y!' });
  });

  test('form: number of fields, repeats of one name, length of a name', () => {
    assert.equal(Object.keys(parseForm(joined(MAX_FORM_FIELDS, (i) => `f${i}=x`))).length, MAX_FORM_FIELDS);
    assert.throws(() => parseForm(joined(MAX_FORM_FIELDS + 1, (i) => `f${i}=x`)), refusal(`The form has more than ${MAX_FORM_FIELDS} fields.`));
    assert.equal(parseForm(joined(MAX_FORM_REPEATS, (i) => `personId=p${i}`)).personId!.length, MAX_FORM_REPEATS);
    assert.throws(
      () => parseForm(joined(MAX_FORM_REPEATS + 1, (i) => `personId=p${i}`)),
      refusal(`The form repeats the field "personId" more than ${MAX_FORM_REPEATS} times.`),
    );
    assert.equal(parseForm(`${'k'.repeat(MAX_KEY_LENGTH)}=1`)['k'.repeat(MAX_KEY_LENGTH)], '1');
    assert.throws(() => parseForm(`${'k'.repeat(MAX_KEY_LENGTH + 1)}=1`), refusal(`field name longer than ${MAX_KEY_LENGTH} characters`));
  });

  test('query string: number of parameters, repeats of one name, length of a name', () => {
    assert.equal(Object.keys(parseQuery(joined(MAX_QUERY_PARAMS, (i) => `p${i}=1`))).length, MAX_QUERY_PARAMS);
    assert.throws(() => parseQuery(joined(MAX_QUERY_PARAMS + 1, (i) => `p${i}=1`)), refusal(`The query string has more than ${MAX_QUERY_PARAMS} parameters.`));
    assert.equal(parseQuery(joined(MAX_QUERY_REPEATS, () => 'limit=1')).limit!.length, MAX_QUERY_REPEATS);
    assert.throws(
      () => parseQuery(joined(MAX_QUERY_REPEATS + 1, () => 'limit=1')),
      refusal(`repeats the parameter "limit" more than ${MAX_QUERY_REPEATS} times`),
    );
    assert.equal(parseQuery(`${'q'.repeat(MAX_KEY_LENGTH)}=1`)['q'.repeat(MAX_KEY_LENGTH)], '1');
    assert.throws(() => parseQuery(`${'q'.repeat(MAX_KEY_LENGTH + 1)}=1`), refusal(`parameter name longer than ${MAX_KEY_LENGTH} characters`));
  });

  test('JSON: depth, number of values, length of a key', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    assert.doesNotThrow(() => parseJsonText(nested(MAX_JSON_DEPTH), 'The layout'));
    assert.throws(() => parseJsonText(nested(MAX_JSON_DEPTH + 1), 'The layout'), refusal(`The layout nests deeper than ${MAX_JSON_DEPTH} levels.`));
    // The outermost array is a value too.
    const values = (n: number) => `[${Array.from({ length: n - 1 }, () => '0').join(',')}]`;
    assert.equal((parseJsonText(values(MAX_JSON_VALUES), 'The layout') as unknown[]).length, MAX_JSON_VALUES - 1);
    assert.throws(() => parseJsonText(values(MAX_JSON_VALUES + 1), 'The layout'), refusal(`The layout has more than ${MAX_JSON_VALUES} values.`));
    assert.deepEqual(parseJsonText(`{"${'k'.repeat(MAX_KEY_LENGTH)}":{}}`, 'The layout'), { ['k'.repeat(MAX_KEY_LENGTH)]: {} });
    assert.throws(() => parseJsonText(`{"${'k'.repeat(MAX_KEY_LENGTH + 1)}":{}}`, 'The layout'), refusal(`key longer than ${MAX_KEY_LENGTH} characters`));
  });

  test('JSON text from a form is refused as the body parser refuses it: not JSON, prototype keys', () => {
    assert.throws(() => parseJsonText('{"widgets": [', 'The layout'), refusal('The layout is not valid JSON.'));
    for (const poisoned of ['{"__proto__":{"polluted":true}}', '{"a":[{"constructor":{"prototype":{"x":1}}}]}']) {
      assert.throws(() => parseJsonText(poisoned, 'The layout'), refusal('forbidden prototype property'));
    }
    assert.deepEqual(parseJsonText('{"constructor":"a name"}', 'The layout'), { constructor: 'a name' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
