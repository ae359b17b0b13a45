// The outbound settings: loopback fetches only when asked for and never in production, and the
// webhook retry settings read and bounded like every other integer setting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/kernel/config.ts';

test('OUTBOUND_ALLOW_LOOPBACK is off by default, on when asked, and refused in production', () => {
  assert.equal(loadConfig({}).outbound.allowLoopback, false);
  assert.equal(loadConfig({ OUTBOUND_ALLOW_LOOPBACK: 'true' }).outbound.allowLoopback, true);
  assert.throws(() => loadConfig({ OUTBOUND_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' }), ConfigError);
  assert.throws(() => loadConfig({ OUTBOUND_ALLOW_LOOPBACK: 'yes' }), ConfigError);
  assert.equal(loadConfig({ NODE_ENV: 'production' }).outbound.allowLoopback, false);
});

test('webhook settings have defaults and bounds', () => {
  assert.deepEqual(loadConfig({}).webhooks, { retry: { limit: 8, delaySeconds: 30, maxDelaySeconds: 21600 }, timeoutMs: 10000, sweepSeconds: 15 });
  assert.equal(loadConfig({ WEBHOOK_RETRY_LIMIT: '0' }).webhooks.retry.limit, 0);
  assert.throws(() => loadConfig({ WEBHOOK_RETRY_LIMIT: '-1' }), ConfigError);
  assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '5' }), ConfigError);
  assert.throws(() => loadConfig({ WEBHOOK_SWEEP_SECONDS: '0' }), ConfigError);
});
