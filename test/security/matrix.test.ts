// The generated security matrix (house style, habit 7): for every route of v1 and v2, read from the
// route definitions, the denials a credential can meet — none, wrong scope, revoked, expired,
// outside its allowed IPs, team without the route's feature, creator demoted below the route's
// roles, another team's id — plus a control: the right key gets past the guard,
// so every denial above is known to come from the missing property and nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/kernel/clock.ts';
import { startTestContext } from '../helpers/context.ts';
import { type Keys, securityKeys } from './keys.ts';
import { otherTeamCases, type RouteRow, routeTable, urlOf } from './route-table.ts';

const clock = new ManualClock();
const t = await startTestContext({ clock });
after(async () => {
  await t.close();
});
const rows = routeTable(t.ctx);
const keysOf = securityKeys(t.ctx, clock, 'matrix');

function send(row: RouteRow, headers: Record<string, string>, params: Record<string, string> = {}, body?: unknown) {
  const write = row.def.method !== 'GET';
  return t.app.inject({ method: row.def.method, url: urlOf(row, params), headers, ...(write ? { payload: (body ?? {}) as object } : {}) });
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The error code in the surface's own envelope (v1 `{ detail, code }`, v2 `{ error }`). */
function errorCode(row: RouteRow, res: LightMyRequestResponse): string {
  const body = res.json();
  if (row.surface === 'v1') {
    assert.deepEqual(Object.keys(body).sort(), ['code', 'detail']);
    return body.code;
  }
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(typeof body.error.message, 'string');
  return body.error.code;
}

const challenge = 'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/api", scope="public.read public.ai"';

/** 401 with the RFC 6750 challenge; `error="invalid_token"` when a token was sent (RFC 6750 §3.1). */
function assertUnauthorized(row: RouteRow, res: LightMyRequestResponse, tokenSent: boolean) {
  assert.equal(res.statusCode, 401, res.body);
  const header = String(res.headers['www-authenticate']);
  if (tokenSent) assert.ok(header.startsWith(`${challenge}, error="invalid_token", error_description="`), header);
  else assert.equal(header, challenge);
  assert.equal(errorCode(row, res), 'unauthorized');
}

test('the table holds both surfaces', () => {
  assert.ok(rows.some((r) => r.surface === 'v1'));
  assert.ok(rows.some((r) => r.surface === 'v2'));
});

for (const row of rows) {
  describe(row.name, () => {
    let keys: Keys;
    before(async () => {
      keys = await keysOf.keysFor(row.op);
    });

    test('no credential → 401 unauthorized with WWW-Authenticate', async () => {
      assertUnauthorized(row, await send(row, {}), false);
    });

    test('wrong scope → 403 scope_missing', { skip: row.op.scopes.length === 0 && 'the route needs no scope' }, async () => {
      const res = await send(row, bearer(keys.wrongScope!));
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(errorCode(row, res), 'scope_missing');
      assert.match(res.body, new RegExp(row.op.scopes[0]!.replace('.', '\\.')));
      // RFC 6750 §3.1: the challenge names the operation's own scopes at the API's resource.
      assert.equal(
        res.headers['www-authenticate'],
        `Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/api", scope="${row.op.scopes.join(' ')}", error="insufficient_scope", error_description="${JSON.parse(res.body).detail ?? JSON.parse(res.body).error.message}"`,
      );
    });

    test('revoked key → 401', async () => {
      assertUnauthorized(row, await send(row, bearer(keys.revoked)), true);
    });

    test('expired key → 401', async () => {
      assertUnauthorized(row, await send(row, bearer(keys.expired)), true);
    });

    test('key used outside its allowed IPs → 403 ip_not_allowed', async () => {
      const res = await send(row, bearer(keys.ipLimited));
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(errorCode(row, res), 'ip_not_allowed');
    });

    if (row.surface === 'v2') {
      test('X-API-Key is not a v2 credential → 401', async () => {
        assertUnauthorized(row, await send(row, { 'x-api-key': keys.valid }), false);
      });
    }

    if (row.op.feature) {
      const feature = row.op.feature;
      test(`team without the ${feature} feature → 403 feature_required`, async () => {
        const key = await keysOf.withoutFeature(row.op, feature);
        const res = await send(row, bearer(key));
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(errorCode(row, res), 'feature_required');
      });
    }

    if (row.op.roles && !row.op.roles.includes('member')) {
      test('key of a creator demoted to member → 403 forbidden', async () => {
        const key = await keysOf.demoted(row.op);
        const res = await send(row, bearer(key));
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(errorCode(row, res), 'forbidden');
      });
    }

    const otherTeam = otherTeamCases[row.operationId];
    if (otherTeam && 'setup' in otherTeam) {
      test("another team's id → 404 not_found", async () => {
        const { params, body } = await otherTeam.setup({
          app: t.app,
          ctx: t.ctx,
          ownerKey: keys.valid,
          ownerTeamId: keys.teamId!,
          ownerAccountId: keys.accountId,
        });
        const key = await keysOf.stranger(row.op);
        const res = await send(row, bearer(key), params, body);
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(errorCode(row, res), 'not_found');
      });
    }

    test('control: a key with the right scope gets past the guard', async () => {
      const res = await send(row, bearer(keys.valid));
      assert.ok(![401, 403].includes(res.statusCode), `${res.statusCode} ${res.body}`);
      if (row.surface === 'v1') assert.ok(![401, 403].includes((await send(row, { 'x-api-key': keys.valid })).statusCode));
    });
  });
}
