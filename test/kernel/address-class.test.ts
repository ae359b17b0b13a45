// Every block of the IANA special-purpose address registries walked through the SSRF guard
// (kernel/address-class.ts via safe-fetch's isAddressAllowed and checkFetchTarget): its first,
// a middle and its last address are refused, written plainly and in every IPv6 form that carries
// an IPv4 address. The tables below are copied from the registries, not from the code under test:
//   IANA IPv4 Special-Purpose Address Registry, https://www.iana.org/assignments/iana-ipv4-special-registry/
//   IANA IPv6 Special-Purpose Address Registry, https://www.iana.org/assignments/iana-ipv6-special-registry/
// plus the blocks the IPv6 addressing architecture (RFC 4291) and the multicast registries set
// apart outside them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { classifyAddress } from '../../src/kernel/address-class.ts';
import { checkFetchTarget, isAddressAllowed, SafeFetchError, safeFetch } from '../../src/kernel/safe-fetch.ts';

interface Entry {
  block: string;
  name: string;
  rfc: string;
  /** The registry's "Globally Reachable" column (N/A where it says so). */
  global: boolean | 'N/A';
}

const IPV4_REGISTRY: Entry[] = [
  { block: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791 §3.2', global: false },
  { block: '0.0.0.0/32', name: '"This host on this network"', rfc: 'RFC 1122 §3.2.1.3', global: false },
  { block: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', global: false },
  { block: '100.64.0.0/10', name: 'Shared Address Space', rfc: 'RFC 6598', global: false },
  { block: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122 §3.2.1.3', global: false },
  { block: '169.254.0.0/16', name: 'Link Local', rfc: 'RFC 3927', global: false },
  { block: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', global: false },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments', rfc: 'RFC 6890 §2.1', global: false },
  { block: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', rfc: 'RFC 7335', global: false },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600', global: false },
  { block: '192.0.0.9/32', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', global: true },
  { block: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', global: true },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', global: false },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', global: false },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', global: false },
  { block: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', global: true },
  { block: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', global: true },
  { block: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526', global: 'N/A' },
  { block: '192.88.99.2/32', name: '6a44-relay anycast address', rfc: 'RFC 6751', global: true },
  { block: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', global: false },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', global: true },
  { block: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', global: false },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', global: false },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', global: false },
  { block: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112 §4', global: false },
  { block: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 8190, RFC 919 §7', global: false },
];

const IPV6_REGISTRY: Entry[] = [
  { block: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', global: false },
  { block: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291', global: false },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', rfc: 'RFC 4291', global: false },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', rfc: 'RFC 6052', global: true },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat.', rfc: 'RFC 8215', global: false },
  { block: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', global: false },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', global: false },
  { block: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928', global: false },
  { block: '2001::/32', name: 'TEREDO', rfc: 'RFC 4380, RFC 8190', global: 'N/A' },
  { block: '2001:1::1/128', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', global: true },
  { block: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', global: true },
  { block: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', rfc: 'RFC 9665', global: true },
  { block: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180, RFC Errata 1752', global: false },
  { block: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450', global: true },
  { block: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535', global: true },
  { block: '2001:10::/28', name: 'Deprecated (previously ORCHID)', rfc: 'RFC 4843', global: 'N/A' },
  { block: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343', global: true },
  { block: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', rfc: 'RFC 9374', global: true },
  { block: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', global: false },
  { block: '2002::/16', name: '6to4', rfc: 'RFC 3056', global: 'N/A' },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', global: true },
  { block: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', global: false },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', global: false },
  { block: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190', global: false },
  { block: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', global: false },
];

/** Set apart outside the two registries. */
const OTHER_SPECIAL: Entry[] = [
  { block: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771 (IPv4 Multicast Address Space Registry)', global: false },
  { block: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291 §2.7', global: false },
  { block: '::/96', name: 'IPv4-Compatible IPv6 Address (deprecated)', rfc: 'RFC 4291 §2.5.5.1', global: false },
  { block: 'fec0::/10', name: 'Site-Local (deprecated)', rfc: 'RFC 3879', global: false },
  { block: '4000::/3', name: 'Unassigned (outside global unicast 2000::/3)', rfc: 'RFC 4291 §2.4', global: false },
];

/** The IPv6 forms that carry an IPv4 address: each turns one into its IPv6 text. */
const words = (a: ipaddr.IPv4) => {
  const [b0, b1, b2, b3] = a.octets as [number, number, number, number];
  return [((b0 << 8) | b1).toString(16), ((b2 << 8) | b3).toString(16)] as const;
};
const CARRIERS: Record<string, (a: ipaddr.IPv4) => string> = {
  'IPv4-mapped ::ffff:0:0/96': (a) => `::ffff:${a.toString()}`,
  'IPv4-compatible ::/96': (a) => `::${words(a).join(':')}`,
  'NAT64 64:ff9b::/96': (a) => `64:ff9b::${words(a).join(':')}`,
  '6to4 2002::/16': (a) => `2002:${words(a).join(':')}::1`,
  'Teredo 2001::/32, as server': (a) => `2001:0:${words(a).join(':')}:0:0:fefe:fefe`,
  'Teredo 2001::/32, as client': (a) => {
    const [hi, lo] = words(a).map((w) => (~Number.parseInt(w, 16) & 0xffff).toString(16));
    return `2001:0:808:808:0:0:${hi}:${lo}`;
  },
};

/** First, middle and last address of a block. */
function samples(block: string): string[] {
  const [net, bits] = ipaddr.parseCIDR(block);
  const bytes = net.toByteArray();
  const total = bytes.length * 8;
  const at = (fill: (bit: number) => number) => {
    const out = [...bytes];
    for (let bit = bits; bit < total; bit++) {
      const byte = bit >> 3;
      const mask = 0x80 >> (bit & 7);
      out[byte] = fill(bit) ? out[byte]! | mask : out[byte]! & ~mask;
    }
    return ipaddr.fromByteArray(out).toString();
  };
  return [...new Set([at(() => 0), at((bit) => (bit === bits ? 1 : bit % 3 === 0 ? 1 : 0)), at(() => 1)])];
}

/** Blocks whose addresses carry an IPv4 one: their middle address is walked by the next test, as what it carries. */
const CARRIER_BLOCKS = new Set(['::ffff:0:0/96', '64:ff9b::/96', '2001::/32', '2002::/16', '::/96']);

const GLOBAL = ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e'];
const isLoopbackBlock = (e: Entry) => e.name.startsWith('Loopback');

test('every address of every special-purpose block is refused; with allowLoopback only loopback passes', () => {
  let walked = 0;
  for (const entry of [...IPV4_REGISTRY, ...IPV6_REGISTRY, ...OTHER_SPECIAL]) {
    const all = samples(entry.block);
    for (const address of CARRIER_BLOCKS.has(entry.block) ? [all[0]!, all.at(-1)!] : all) {
      const why = `${address} in ${entry.block} (${entry.name}, ${entry.rfc}, globally reachable: ${entry.global})`;
      assert.equal(isAddressAllowed(address), false, why);
      assert.equal(isAddressAllowed(`[${address}]`), false, why);
      // The mapped form of 127.0.0.0/8 is the same socket address, so it is loopback too.
      const loopback = isLoopbackBlock(entry);
      assert.equal(isAddressAllowed(address, true), loopback, `${why}, allowLoopback`);
      walked++;
    }
  }
  assert.ok(walked > 120, `walked ${walked}`);
});

test('every IPv6 form carrying an IPv4 address is judged by what it carries', () => {
  for (const entry of IPV4_REGISTRY.concat(OTHER_SPECIAL.filter((e) => e.block.includes('.')))) {
    for (const inner of samples(entry.block)) {
      for (const [form, wrap] of Object.entries(CARRIERS)) {
        const address = wrap(ipaddr.IPv4.parse(inner));
        const why = `${address}: ${form} carrying ${inner} (${entry.block}, ${entry.name})`;
        assert.equal(classifyAddress(address) === 'global', false, why);
        assert.equal(isAddressAllowed(address), false, why);
        // Through a translator or a tunnel, 127.0.0.1 is not this machine: refused even with allowLoopback.
        const sameSocket = form.startsWith('IPv4-mapped') && isLoopbackBlock(entry);
        assert.equal(isAddressAllowed(address, true), sameSocket, `${why}, allowLoopback`);
      }
    }
  }
  for (const [form, wrap] of Object.entries(CARRIERS)) {
    assert.equal(isAddressAllowed(wrap(ipaddr.IPv4.parse('8.8.8.8'))), true, `${form} carrying 8.8.8.8`);
  }
});

test('global unicast addresses pass, and texts that are no address are refused', () => {
  for (const a of GLOBAL) assert.equal(isAddressAllowed(a), true, a);
  for (const a of ['', 'localhost', 'example.org', '1.2.3.4.5', '::g', '[]']) assert.equal(isAddressAllowed(a), false, a);
});

test('the reported URL and its relatives are refused before any connection, with or without allowLoopback', async () => {
  for (const url of [
    'https://[::127.0.0.1]:8765/hook',
    'https://[::7f00:1]/hook',
    'https://[::a00:1]/',
    'https://[64:ff9b::7f00:1]/',
    'https://[64:ff9b:1::a00:1]/',
    'https://[2002:7f00:1::1]/',
    'https://[2001:0:7f00:1::fefe:fefe]/',
    'https://[::ffff:a9fe:a9fe]/',
  ]) {
    for (const allowLoopback of [false, true]) {
      await assert.rejects(
        checkFetchTarget(url, { allowLoopback }),
        (err: unknown) => err instanceof SafeFetchError && err.code === 'address_not_allowed',
        url,
      );
      await assert.rejects(
        safeFetch(url, { maxBytes: 10, timeoutMs: 1000, maxRedirects: 0, allowLoopback }),
        (err: unknown) => err instanceof SafeFetchError && err.code === 'address_not_allowed',
        url,
      );
    }
  }
});
