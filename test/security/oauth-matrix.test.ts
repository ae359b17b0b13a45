// The security matrix for OAuth access tokens: every route of v1 and v2 meets an access token as it
// meets a key (verify.ts builds the same Actor) — revoked, expired, without the route's scope, or
// bound to another surface (RFC 8707) is refused; a grant with the route's scopes gets past the
// guard. Keys' own cases are in matrix.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { features } from '../../src/kernel/actor.ts';
import { ManualClock } from '../../src/kernel/clock.ts';
import type { Scope } from '../../src/kernel/access.ts';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext } from '../helpers/context.ts';
import { mintOAuthTokens } from '../helpers/oauth.ts';
import { keyKindFor, otherScopes, type RouteRow, routeTable, urlOf } from './route-table.ts';

const clock = new ManualClock();
const t = await startTestContext({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: '60' } });
after(async () => {
  await t.close();
});
const rows = routeTable(t.ctx);
const { accounts } = t.ctx.services;
let serial = 0;

interface Tokens {
  valid: string;
  wrongScope: string | null;
  revoked: string;
  expired: string;
  otherResource: string;
}

async function tokensFor(row: RouteRow): Promise<Tokens> {
  const kind = keyKindFor(row.op);
  const account = await accounts.create({ email: `oauth-matrix${++serial}@example.org` });
  const teamId =
    kind === 'team' ? (await accounts.teams.create(operator, { name: `OAuth team ${serial}`, ownerAccountId: account.id, features: [...features] })).id : null;
  const needed: Scope[] = row.op.scopes.length ? [...row.op.scopes] : ['public.read'];
  const mint = (scopes: readonly string[], resource?: string) =>
    mintOAuthTokens(t.ctx, { accountId: account.id, teamId, scopes, ...(resource ? { resource } : {}) });
  const revoked = await mint(needed);
  await t.ctx.services.oauth.revoke({ token: revoked.refresh_token, client_id: revoked.client_id });
  const expired = await mint(needed);
  clock.advance(61_000);
  return {
    valid: (await mint(needed)).access_token,
    wrongScope: row.op.scopes.length ? (await mint(otherScopes(row.op, kind))).access_token : null,
    revoked: revoked.access_token,
    expired: expired.access_token,
    otherResource: (await mint(needed, 'mcp')).access_token,
  };
}

function send(row: RouteRow, token: string) {
  const write = row.def.method !== 'GET';
  return t.app.inject({ method: row.def.method, url: urlOf(row), headers: { authorization: `Bearer ${token}` }, ...(write ? { payload: {} } : {}) });
}

function assertInvalidToken(res: Awaited<ReturnType<typeof send>>) {
  assert.equal(res.statusCode, 401, res.body);
  assert.match(
    String(res.headers['www-authenticate']),
    /^Bearer resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/api", scope="public\.read public\.ai", error="invalid_token"/,
  );
}

for (const row of rows) {
  describe(`${row.name} with an OAuth access token`, () => {
    let tokens: Tokens;
    before(async () => {
      tokens = await tokensFor(row);
    });
    test('revoked grant → 401 invalid_token', async () => assertInvalidToken(await send(row, tokens.revoked)));
    test('expired access token → 401 invalid_token', async () => assertInvalidToken(await send(row, tokens.expired)));
    test('token bound to /mcp → 401 invalid_token', async () => assertInvalidToken(await send(row, tokens.otherResource)));
    test('wrong scope → 403 scope_missing', { skip: row.op.scopes.length === 0 && 'the route needs no scope' }, async () => {
      const res = await send(row, tokens.wrongScope!);
      assert.equal(res.statusCode, 403, res.body);
      assert.match(res.body, /scope_missing/);
    });
    test('control: a grant with the right scopes gets past the guard', async () => {
      const res = await send(row, tokens.valid);
      assert.ok(![401, 403].includes(res.statusCode), `${res.statusCode} ${res.body}`);
    });
  });
}
