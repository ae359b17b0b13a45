// Hostile requests generated from what the service publishes about itself: the v1 and v2 OpenAPI
// documents, every route the app serves (pages, feeds, Markdown, OAuth, well-known), and the
// protocol surfaces' own vocabularies (MCP methods and tools/list, the A2A card's methods, GraphQL
// fields). Each request is one mutation of a well-formed one: wrong types, boundary values, huge
// and deeply nested bodies, malformed JSON, odd encodings and Unicode, header abuse, path
// traversal. Deterministic for a seed (mulberry32), so a failure is replayed by its seed and index.

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  url: string;
  headers: Record<string, string>;
  /** A raw body: the generator decides its bytes, including malformed JSON. */
  body?: string;
  /** What was mutated, for the report. */
  what: string;
}

export interface Target {
  method: FuzzRequest['method'];
  /** A path with `:param` or `{param}` placeholders. */
  path: string;
  /** JSON Schema of the body, when the route takes one. */
  body?: any;
  /** JSON Schema of each query parameter. */
  query?: Record<string, any>;
  /** How the route takes a credential: the harness's key, none, or a session cookie. */
  auth: 'key' | 'personal' | 'none';
  form?: boolean;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** Strings a person, a script or an attacker might send where a value is expected. */
export const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'x'.repeat(5000),
  'é'.repeat(3000),
  '-'.repeat(40),
  '- '.repeat(40),
  '"unterminated',
  '& | ! ( ) : * <-> \\',
  "'; drop table matters; --",
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '%E0%A4%A',
  '\ud800',
  '\uffff\ufeff\u200b',
  '𝕮𝖔𝖚𝖓𝖈𝖎𝖑 🏛️',
  'ﷺ'.repeat(100),
  '<script>alert(1)</script>',
  // A template-injection probe, kept as plain text.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal is the point
  '{{7*7}}${7*7}',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  '-9223372036854775809',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  '2023-02-30',
  '0000-00-00T25:61:61Z',
  '9999-12-31',
  'O2023-0001234',
  'so2026-0025407',
];

const hostileValues: unknown[] = [
  null,
  true,
  -1,
  0,
  2 ** 53,
  -(2 ** 63),
  1.5,
  1e308,
  [],
  {},
  [null],
  { $ne: null },
  JSON.parse('{"__proto__":{"polluted":true}}'),
  ...hostileStrings.slice(0, 12),
];

const contentTypes = [
  'application/json',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  'application/a2a+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/xml',
  'application/json, text/plain',
  '',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

/** A valid-looking value for a schema, to mutate one field at a time. */
function sample(schema: any, rand: () => number, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  if (schema.enum) return pick(rand, schema.enum);
  if (schema.const !== undefined) return schema.const;
  const anyOf = schema.anyOf ?? schema.oneOf;
  if (anyOf) return sample(pick(rand, anyOf), rand, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sample(v, rand, depth + 1);
      return out;
    }
    case 'array':
      return [sample(schema.items, rand, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return schema.format === 'date' ? '2024-01-01' : 'x';
  }
}

/** One field of an object set to a hostile value (or removed, or an unknown one added). */
function mutateBody(schema: any, rand: () => number): { body: string; what: string } {
  const r = rand();
  if (r < 0.08) return { body: '{"a":', what: 'truncated JSON' };
  if (r < 0.12) return { body: deep(5000), what: 'deeply nested array' };
  if (r < 0.16) return { body: deepObject(2000), what: 'deeply nested object' };
  if (r < 0.19) return { body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }), what: 'over 1 MiB' };
  if (r < 0.22) return { body: '\u0000\u0001\u0002', what: 'control bytes' };
  if (r < 0.25) return { body: '{"a":1,"a":2}', what: 'duplicate key' };
  if (r < 0.28) return { body: JSON.stringify(pick(rand, hostileValues)), what: 'a scalar or array as the body' };
  const base = sample(schema, rand);
  if (!base || typeof base !== 'object' || Array.isArray(base)) return { body: JSON.stringify(pick(rand, hostileValues)), what: 'hostile body' };
  const obj = base as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (!keys.length || rand() < 0.15) {
    obj[pick(rand, ['extra', '__proto__', 'constructor', ''])] = pick(rand, hostileValues);
    return { body: JSON.stringify(obj), what: 'unknown field' };
  }
  const key = pick(rand, keys);
  if (rand() < 0.15) {
    delete obj[key];
    return { body: JSON.stringify(obj), what: `${key} missing` };
  }
  const value = pick(rand, hostileValues);
  obj[key] = value;
  return { body: JSON.stringify(obj), what: `${key}=${JSON.stringify(value)?.slice(0, 40)}` };
}

/** Percent-encoded; a lone surrogate becomes the bytes of one (invalid UTF-8), as a hostile client sends it. */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

function fillPath(path: string, rand: () => number, fuzzed: boolean): string {
  return path.replace(/:([A-Za-z0-9_]+)|\{([A-Za-z0-9_]+)\}/g, () =>
    enc(fuzzed ? pick(rand, hostileStrings) : pick(rand, ['O2023-0001234', '1', 'x'])).replaceAll('%2F', pick(rand, ['%2F', '/'])),
  );
}

/** A mutated JSON object as form fields (the value of each field as text); anything else as it is. */
function asForm(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return json;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return json;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form.toString();
}

/** Request `i` of the run for `seed`: a target chosen and mutated by the seed's stream. */
export function generate(targets: readonly Target[], seed: number, count: number): FuzzRequest[] {
  const rand = mulberry32(seed);
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const target = pick(rand, targets);
    const headers: Record<string, string> = {};
    let what = `${target.method} ${target.path}`;
    const fuzzPath = rand() < 0.3;
    let url = fillPath(target.path, rand, fuzzPath);
    if (fuzzPath) what += ' path';
    // Query: each declared parameter sometimes given a hostile value, sometimes repeated.
    const params: string[] = [];
    for (const [name] of Object.entries(target.query ?? {})) {
      const r = rand();
      if (r < 0.35) params.push(`${name}=${enc(pick(rand, hostileStrings))}`);
      else if (r < 0.45) params.push(`${name}=1&${name}=2`);
    }
    if (rand() < 0.1) params.push(`${enc(pick(rand, hostileStrings))}=${enc(pick(rand, hostileStrings))}`);
    if (params.length) url += `?${params.join('&')}`;
    // Headers: odd, duplicated or huge credentials; odd Accept; odd Content-Type.
    const h = rand();
    if (h < 0.05) headers.authorization = 'Bearer ' + 'x'.repeat(9000);
    else if (h < 0.1) headers.authorization = pick(rand, ['Bearer', 'Basic Og==', 'Bearer \u00e9', 'bearer  a b', 'Digest x']);
    else if (h < 0.13) headers['x-api-key'] = pick(rand, hostileStrings.slice(0, 6)) || 'x';
    if (rand() < 0.1) headers.accept = pick(rand, ['text/markdown', 'application/atom+xml', '*/*;q=abc', 'text/html;q=0', '']);
    if (rand() < 0.05) headers['idempotency-key'] = pick(rand, ['', 'x'.repeat(300), '\u00e9', 'k']);
    if (rand() < 0.05) headers['x-team-id'] = pick(rand, hostileStrings.slice(0, 8)) || 'x';
    if (rand() < 0.04) headers['x-forwarded-for'] = pick(rand, ['1.2.3.4, 5.6.7.8', '::1', 'garbage', '127.0.0.1']);
    if (rand() < 0.04) headers.cookie = pick(rand, ['ct_session=' + 'a'.repeat(4000), 'ct_session=;ct_session=x', '=', 'ct_session=%']);
    let body: string | undefined;
    if (target.method !== 'GET' && target.method !== 'HEAD' && target.method !== 'DELETE') {
      const m = mutateBody(target.body, rand);
      body = target.form ? asForm(m.body) : m.body;
      what += ` body: ${m.what}`;
      headers['content-type'] = rand() < 0.8 ? (target.form ? 'application/x-www-form-urlencoded' : 'application/json') : pick(rand, contentTypes);
    } else if (rand() < 0.05) {
      body = '{"unexpected": true}';
      headers['content-type'] = 'application/json';
      what += ' body on a read';
    }
    out.push({ method: target.method, url, headers, ...(body === undefined ? {} : { body }), what });
  }
  return out;
}

/** Every `(METHOD, path)` in Fastify's printRoutes tree ("├── segment (GET, HEAD)"). */
export function routesFromTree(tree: string): { method: FuzzRequest['method']; path: string }[] {
  const stack: string[] = [];
  const out: { method: FuzzRequest['method']; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([\s│]*)[├└]── (.*?) \(([A-Z, ]+)\)$/.exec(line) ?? /^([\s│]*)[├└]── (.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) out.push({ method: method as FuzzRequest['method'], path });
    }
  }
  return out;
}
