// The benchmark's capacity model (bench/capacity-model.ts): CPU per request turned into requests a
// second per core and instances per PostgreSQL core.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capacityOf } from '../../bench/capacity-model.ts';

test('CPU per request gives requests per core and the instances one PostgreSQL core feeds', () => {
  // 2,000 requests: 1,000 ms of the service (0.5 ms each), 250 ms of PostgreSQL (0.125 ms each).
  const c = capacityOf({ name: 'detail', requests: 2000, serviceMs: 1000, postgresMs: 250 }, 2);
  assert.equal(c.serviceCpuMsPerRequest, 0.5);
  assert.equal(c.postgresCpuMsPerRequest, 0.125);
  assert.equal(c.rpsPerServiceCore, 2000);
  assert.equal(c.rpsPerPostgresCore, 8000);
  assert.equal(c.instancesPerPostgresCore, 4);
  assert.equal(c.instancesPerPostgresServer, 8);
});

test('a route PostgreSQL spends no measurable time on is unbounded by it; without /proc it is unknown', () => {
  const none = capacityOf({ name: 'kept', requests: 100, serviceMs: 10, postgresMs: 0 }, 2);
  assert.equal(none.rpsPerPostgresCore, null);
  assert.equal(none.instancesPerPostgresCore, null);
  const unknown = capacityOf({ name: 'remote', requests: 100, serviceMs: 10, postgresMs: null }, 2);
  assert.equal(unknown.postgresCpuMsPerRequest, null);
  assert.equal(unknown.rpsPerServiceCore, 10_000);
});

test('no answered request is refused rather than divided by', () => {
  assert.throws(() => capacityOf({ name: 'none', requests: 0, serviceMs: 5, postgresMs: 1 }, 2), /no request answered/);
});
