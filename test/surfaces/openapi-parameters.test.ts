// The OpenAPI documents say what the service does: every query parameter declared optional may be
// left out (the route answers without it), every one declared required may not (400), and a
// parameter with a default is never declared required.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { makeTeam, startWorld, type World } from './v2/team-helpers.ts';

let w: World;
let headers: Record<string, string>;
let personal: Record<string, string>;
before(async () => {
  w = await startWorld();
  const team = await makeTeam(w.t, ['team_data', 'advocacy', 'analytics', 'people'], ['public.read', 'team.keys.read', 'team.members.read']);
  const big = { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 };
  await w.t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: big });
  await w.t.ctx.services.accounts.setLimits(operator, { accountId: team.owner, limits: big });
  headers = { authorization: `Bearer ${team.keys.owner}` };
  const own = await w.t.ctx.services.credentials.keys.create({
    accountId: team.owner,
    name: 'personal',
    scopes: ['public.read', 'me.follows.read', 'me.keys.read', 'me.webhooks.read'],
  });
  personal = { authorization: `Bearer ${own.key}` };
});
after(async () => {
  await w.t.close();
});

/** A value the parameter's schema accepts. */
function sample(schema: any): string {
  if (schema.enum) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number') return String(Math.max(1, schema.minimum ?? 1));
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'date') return '2023-01-01';
  if (schema.format === 'date-time') return '2023-01-01T00:00:00Z';
  return 'tax';
}

for (const [version, doc] of [
  ['v1', '/api/openapi.json'],
  ['v2', '/api/v2/openapi.json'],
] as const) {
  test(`${version}: declared query parameters match what each GET route accepts without them`, async () => {
    const spec = (await w.t.app.inject({ url: doc })).json();
    const failures: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<any>(spec.paths)) {
      const get = ops.get;
      if (!get || path.includes('{')) continue;
      const query = (get.parameters ?? []).filter((p: any) => p.in === 'query');
      const required = query.filter((p: any) => p.required);
      for (const p of query) if (p.schema.default !== undefined && p.required) failures.push(`${path} ${p.name}: has a default but is declared required`);
      const url = (params: any[]) => `/api/${version}${path}?${params.map((p) => `${p.name}=${encodeURIComponent(sample(p.schema))}`).join('&')}`;
      const auth = path.startsWith('/me/') ? personal : headers;
      // Only the required ones: every optional parameter is left out at once.
      const res = await w.t.app.inject({ url: url(required), headers: auth });
      checked++;
      if (res.statusCode !== 200) failures.push(`${path} without its optional parameters: ${res.statusCode} ${res.body.slice(0, 120)}`);
      for (const missing of required) {
        const without = await w.t.app.inject({ url: url(required.filter((p: any) => p !== missing)), headers: auth });
        if (without.statusCode !== 400) failures.push(`${path} without required ${missing.name}: ${without.statusCode}`);
      }
    }
    assert.ok(checked > 15, `only ${checked} routes checked`);
    assert.deepEqual(failures, []);
  });
}
