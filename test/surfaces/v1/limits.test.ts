// The limits as a client sees them through the v1 API: headers on every response, 429 bodies
// with detail, GET /me outside the daily count, and the operator's limit values in force.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const clock = new ManualClock('2025-03-10T21:00:00Z');
let t: TestContext;
let key: string;

before(async () => {
  t = await startTestContext({ clock });
  const account = await t.ctx.services.accounts.create({ email: 'limits@example.org' });
  await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 3, requestsPerMinute: 10 } });
  ({ key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'limits', scopes: null }));
});
after(async () => {
  await t.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

test('the daily limit through v1: headers count down, the 4th request is 429 with detail and Retry-After to midnight UTC', async () => {
  for (let i = 1; i <= 3; i++) {
    const res = await get('/api/v1/bodies');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['ratelimit-limit'], '3');
    assert.equal(res.headers['ratelimit-remaining'], String(3 - i));
    assert.equal(res.headers['ratelimit-reset'], '10800');
    assert.equal(res.headers['x-ai-calls-limit'], '50');
    assert.equal(res.headers['ratelimit-policy'], '"minute";q=10;w=60, "day";q=3;w=86400, "ai";q=50;w=86400');
  }
  const refused = await get('/api/v1/bodies');
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers['retry-after'], '10800');
  assert.equal(refused.headers['ratelimit-remaining'], '0');
  const body = refused.json();
  assert.equal(body.code, 'daily_limit');
  assert.match(body.detail, /3 requests a day.*midnight UTC/);

  const me = await get('/api/v1/me');
  assert.equal(me.statusCode, 200, 'GET /me is not held back by the daily limit');
  assert.equal(me.headers['ratelimit-remaining'], '0');
  assert.equal(me.json().usage.requestsToday, 3, 'neither the refused request nor GET /me counted toward the day');

  clock.advance(3 * 3600_000);
  const tomorrow = await get('/api/v1/bodies');
  assert.equal(tomorrow.statusCode, 200);
  assert.equal(tomorrow.headers['ratelimit-remaining'], '2');
});
