// The fuzz run: a service on a fresh database with the test sample and a team whose owner holds
// every scope, then `count` generated requests (generate.ts) through the whole app. A violation is
// a 5xx, a stack trace or a secret in a body, or a change to any table's data. `npm run fuzz`
// sends 10,000; the suite sends a bounded slice (test/security/fuzz.test.ts).
import type { TestContext } from '../helpers/context.ts';
import { tableChecksums } from '../helpers/table-checksums.ts';
import { operator } from '../../src/kernel/actor.ts';
import { allScopes } from '../../src/kernel/access.ts';
import { makeTeam, personalKey, startWorld } from '../surfaces/v2/team-helpers.ts';
import { type FuzzRequest, generate, routesFromTree, type Target } from './generate.ts';

/**
 * Tables a rejected request may still write, by design: its counting (limits), the security log
 * of refusals, stored idempotent answers of 4xx replies, and instances' cache peers. Every other
 * table must hold the same rows after the run.
 */
const bookkeeping = new Set(['credential_usage_days', 'idempotency_keys', 'security_log', 'cache_peers', 'schema_migrations']);
/** Columns any authenticated request updates (when a credential was last used). */
const usageColumns = ['last_used_at'];

export interface FuzzResult {
  sent: number;
  statuses: Record<string, number>;
  violations: string[];
}

const checksums = (t: TestContext) => tableChecksums(t.ctx.db, { tables: bookkeeping, columns: usageColumns });

function protocolTargets(toolNames: string[]): Target[] {
  const rpc = (methods: string[], params: any) => ({
    type: 'object',
    properties: { jsonrpc: { const: '2.0' }, id: { type: 'integer' }, method: { enum: methods }, params },
  });
  return [
    {
      method: 'POST',
      path: '/mcp',
      auth: 'key',
      body: rpc(
        [
          'initialize',
          'ping',
          'tools/list',
          'tools/call',
          'resources/list',
          'resources/templates/list',
          'resources/read',
          'prompts/list',
          'prompts/get',
          'completion/complete',
        ],
        {
          type: 'object',
          properties: {
            name: { enum: toolNames.length ? toolNames : ['x'] },
            arguments: {
              type: 'object',
              properties: { record: { type: 'string' }, q: { type: 'string' }, id: { type: 'string' }, limit: { type: 'integer' } },
            },
            uri: { enum: ['council://matters/O2023-0001234', 'council://people/x', 'file:///etc/passwd'] },
            ref: { type: 'object', properties: { type: { enum: ['ref/resource', 'ref/prompt'] }, uri: { type: 'string' } } },
            argument: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
          },
        },
      ),
    },
    {
      method: 'POST',
      path: '/a2a',
      auth: 'key',
      body: rpc(['message/send', 'message/stream', 'tasks/get', 'tasks/cancel', 'tasks/resubscribe'], {
        type: 'object',
        properties: {
          id: { type: 'string' },
          message: {
            type: 'object',
            properties: {
              role: { enum: ['user', 'agent'] },
              messageId: { type: 'string' },
              parts: { type: 'array', items: { type: 'object', properties: { kind: { enum: ['text', 'data'] }, text: { type: 'string' } } } },
            },
          },
        },
      }),
    },
    {
      method: 'POST',
      path: '/api/graphql',
      auth: 'key',
      body: {
        type: 'object',
        properties: {
          query: {
            enum: [
              '{ matters(first: 2) { nodes { recordNumber title } } }',
              '{ __schema { types { name } } }',
              'query Q($n: Int) { people(first: $n) { nodes { name } } }',
            ],
          },
          variables: { type: 'object', properties: { n: { type: 'integer' } } },
          operationName: { type: 'string' },
        },
      },
    },
    {
      method: 'POST',
      path: '/oauth/token',
      auth: 'none',
      form: true,
      body: {
        type: 'object',
        properties: {
          grant_type: { enum: ['authorization_code', 'refresh_token', 'client_credentials'] },
          code: { type: 'string' },
          code_verifier: { type: 'string' },
          client_id: { type: 'string' },
          redirect_uri: { type: 'string' },
          refresh_token: { type: 'string' },
          resource: { type: 'string' },
        },
      },
    },
    {
      method: 'POST',
      path: '/oauth/register',
      auth: 'none',
      body: {
        type: 'object',
        properties: {
          client_name: { type: 'string' },
          redirect_uris: { type: 'array', items: { enum: ['javascript:alert(1)', 'http://[::1]/cb', 'https://x/../cb'] } },
          grant_types: { type: 'array', items: { type: 'string' } },
          token_endpoint_auth_method: { enum: ['none', 'client_secret_basic'] },
        },
      },
    },
  ];
}

export async function runFuzz(options: { seed: number; count: number; progress?: (line: string) => void }): Promise<FuzzResult> {
  const w = await startWorld();
  try {
    const team = await makeTeam(w.t, ['team_data', 'advocacy', 'analytics', 'people', 'offices'], ['public.read', 'public.ai', 'people.private.read']);
    const big = { requestsPerDay: 10_000_000, requestsPerMinute: 10_000_000, aiAnswersPerDay: 1_000_000 };
    await w.t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: big });
    const personal = await personalKey(
      w.t,
      allScopes.filter((s) => s.startsWith('me.') || s.startsWith('public.')),
    );
    await w.t.ctx.services.accounts.setLimits(operator, { accountId: personal.accountId, limits: big });
    const owner = (
      await w.t.ctx.db.selectFrom('memberships').select('account_id').where('team_id', '=', team.id).where('role', '=', 'owner').executeTakeFirstOrThrow()
    ).account_id;
    await w.t.ctx.services.accounts.setLimits(operator, { accountId: owner, limits: big });

    // Every route the app serves, with the OpenAPI documents' schemas where they describe it.
    const specs: { prefix: string; doc: any }[] = [];
    for (const [version, url] of [
      ['v1', '/api/openapi.json'],
      ['v2', '/api/v2/openapi.json'],
    ] as const) {
      specs.push({ prefix: `/api/${version}`, doc: (await w.t.app.inject({ url })).json() });
    }
    const described = new Map<string, Target>();
    for (const { prefix, doc } of specs) {
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(item)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          const query: Record<string, any> = {};
          for (const p of op.parameters ?? []) if (p.in === 'query') query[p.name] = p.schema;
          const full = `${prefix}${path}`;
          described.set(`${method.toUpperCase()} ${full.replace(/\{([^}]+)\}/g, ':$1')}`, {
            method: method.toUpperCase() as Target['method'],
            path: full,
            query,
            body: op.requestBody?.content?.['application/json']?.schema,
            auth: path.startsWith('/me') ? 'personal' : 'key',
          });
        }
      }
    }
    const tools = (
      await w.t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { authorization: `Bearer ${team.keys.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      })
    ).json()?.result?.tools as { name: string }[] | undefined;
    const targets: Target[] = [...protocolTargets((tools ?? []).map((t) => t.name))];
    for (const route of routesFromTree(w.t.app.printRoutes({ commonPrefix: false }))) {
      const id = `${route.method} ${route.path}`;
      if (route.path.startsWith('/dev/')) continue;
      targets.push(
        described.get(id) ?? {
          method: route.method,
          path: route.path,
          auth: route.path.startsWith('/api/') ? 'key' : 'none',
          form: route.method !== 'GET' && !route.path.startsWith('/api/') && !['/mcp', '/a2a'].includes(route.path),
        },
      );
    }

    const secrets = [team.keys.owner, team.keys.admin, personal.key];
    // The harness's app is built without startServer: it is serving, as far as /ready is concerned.
    w.t.ctx.lifecycle.serving = true;
    // Data may change only by a write the service accepted (2xx): after every other write the
    // tables must read as before it.
    let current = await checksums(w.t);
    const requests = generate(targets, options.seed, options.count);
    const statuses: Record<string, number> = {};
    const violations: string[] = [];
    let i = 0;
    for (const req of requests) {
      const target = req.url.split('?')[0]!;
      const auth: Record<string, string> = {};
      if (req.headers.authorization === undefined && req.headers['x-api-key'] === undefined) {
        if (target.startsWith('/api/v2/me') || target.startsWith('/api/v1/me')) auth.authorization = `Bearer ${personal.key}`;
        else if (target.startsWith('/api/') || target === '/mcp' || target === '/a2a') auth.authorization = `Bearer ${team.keys.owner}`;
      }
      const res = await w.t.app.inject({
        method: req.method,
        url: req.url,
        headers: { ...auth, ...req.headers },
        ...(req.body === undefined ? {} : { payload: req.body }),
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const where = `#${i} (seed ${options.seed}) ${req.method} ${req.url.slice(0, 120)} [${req.what.slice(0, 120)}]`;
      if (res.statusCode >= 500) violations.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (/\bat [^\n]*\.(ts|js):\d+|node:internal/.test(res.body)) violations.push(`${where}: a stack trace in the body`);
      for (const s of secrets) if (res.body.includes(s)) violations.push(`${where}: a credential in the body`);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const now = await checksums(w.t);
        if (res.statusCode >= 300) {
          for (const [table, sum] of current) if (now.get(table) !== sum) violations.push(`${where}: answered ${res.statusCode} yet changed ${table}`);
        }
        current = now;
      }
      if (++i % 1000 === 0) options.progress?.(`${i} requests, ${violations.length} violations`);
    }
    const after = await checksums(w.t);
    for (const [table, sum] of current) if (after.get(table) !== sum) violations.push(`table ${table} changed by a read`);
    return { sent: requests.length, statuses, violations };
  } finally {
    await w.t.close();
  }
}

export type { FuzzRequest };
