// The network a limit per client address counts: IPv4 addresses one by one (mapped ones as IPv4),
// IPv6 addresses by their /64, anything else as itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressGroup } from '../../src/kernel/ip.ts';

test('an IPv4 address is its own group, also when it reaches a dual-stack socket as ::ffff:a.b.c.d', () => {
  assert.equal(addressGroup('203.0.113.9'), '203.0.113.9');
  assert.equal(addressGroup('::ffff:203.0.113.9'), '203.0.113.9');
  assert.notEqual(addressGroup('203.0.113.9'), addressGroup('203.0.113.10'));
});

test('IPv6 addresses in one /64 are one group, written as that network; the next /64 is another', () => {
  assert.equal(addressGroup('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(addressGroup('2001:DB8:1:2::9'), '2001:db8:1:2::/64');
  assert.equal(addressGroup('2001:db8:0:0:ffff::1'), '2001:db8::/64');
  assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:3::1'));
});

test('text that is no address is its own group', () => {
  assert.equal(addressGroup('unknown'), 'unknown');
});
