// Which IP addresses an outbound fetch of a URL someone gave (kernel/safe-fetch.ts) may connect to.
// An address is classified after every IPv6 form that carries an IPv4 address is unwrapped, so the
// same host cannot pass as one form and be refused as another:
//   - IPv4-mapped ::ffff:0:0/96 (RFC 4291 §2.5.5.2): the very IPv4 address, on a dual-stack socket;
//   - IPv4-compatible ::/96 (RFC 4291 §2.5.5.1, deprecated), NAT64 64:ff9b::/96 (RFC 6052 §2.1),
//     6to4 2002::/16 (RFC 3056 §2) and Teredo 2001::/32 (RFC 4380 §4: server and client address)
//     reach the IPv4 address through a translator or tunnel: what they carry must be global.
// Everything else is refused when it lies in a block of the IANA IPv4 or IPv6 Special-Purpose
// Address Registry (RFC 6890, RFC 8190), in multicast (RFC 5771, RFC 4291 §2.7), or — for IPv6 —
// outside global unicast 2000::/3 (RFC 4291 §2.4; the rest is unassigned or special).
import ipaddr from 'ipaddr.js';

export type AddressClass = 'global' | 'loopback' | 'special';

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;
type Cidr<T> = [T, number];

const v4 = (cidr: string) => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);

/** IPv4 blocks refused whatever their registry entry's "Globally Reachable" says: none is a place a webhook or client document lives. */
const REFUSED_V4: Cidr<V4>[] = [
  '0.0.0.0/8', // "This network" (RFC 791 §3.2), incl. 0.0.0.0/32
  '10.0.0.0/8', // Private-Use (RFC 1918)
  '100.64.0.0/10', // Shared Address Space (RFC 6598)
  '169.254.0.0/16', // Link Local (RFC 3927), incl. cloud metadata 169.254.169.254
  '172.16.0.0/12', // Private-Use (RFC 1918)
  '192.0.0.0/24', // IETF Protocol Assignments (RFC 6890), incl. its /29, /32 entries
  '192.0.2.0/24', // Documentation TEST-NET-1 (RFC 5737)
  '192.31.196.0/24', // AS112-v4 (RFC 7535)
  '192.52.193.0/24', // AMT (RFC 7450)
  '192.88.99.0/24', // Deprecated 6to4 Relay Anycast (RFC 7526), incl. 6a44 192.88.99.2/32
  '192.168.0.0/16', // Private-Use (RFC 1918)
  '192.175.48.0/24', // Direct Delegation AS112 Service (RFC 7534)
  '198.18.0.0/15', // Benchmarking (RFC 2544)
  '198.51.100.0/24', // Documentation TEST-NET-2 (RFC 5737)
  '203.0.113.0/24', // Documentation TEST-NET-3 (RFC 5737)
  '224.0.0.0/4', // Multicast (RFC 5771; its own registry)
  '240.0.0.0/4', // Reserved (RFC 1112 §4), incl. Limited Broadcast 255.255.255.255/32
].map(v4);
const LOOPBACK_V4 = v4('127.0.0.0/8'); // RFC 1122 §3.2.1.3

const GLOBAL_UNICAST_V6 = v6('2000::/3');
/** Special-purpose IPv6 blocks inside 2000::/3 (those outside it are refused by not being in it). */
const REFUSED_V6: Cidr<V6>[] = [
  '2001::/23', // IETF Protocol Assignments (RFC 2928): PCP, TURN, DNS-SD SRP anycast, benchmarking, AMT, AS112, ORCHID(v2), DETs
  '2001:db8::/32', // Documentation (RFC 3849)
  '2620:4f:8000::/48', // Direct Delegation AS112 Service (RFC 7534)
  '3fff::/20', // Documentation (RFC 9637)
].map(v6);

/** The IPv6 forms that carry IPv4 addresses, and where: tested before the refused blocks (Teredo lies inside 2001::/23). */
const MAPPED = v6('::ffff:0:0/96');
const CARRIERS: { block: Cidr<V6>; carried(parts: number[]): V4[] }[] = [
  { block: v6('::/96'), carried: (p) => [fromWords(p[6]!, p[7]!)] },
  { block: v6('64:ff9b::/96'), carried: (p) => [fromWords(p[6]!, p[7]!)] },
  { block: v6('2002::/16'), carried: (p) => [fromWords(p[1]!, p[2]!)] },
  // RFC 4380 §4: the Teredo server's address in bits 32–63, the client's, inverted, in bits 96–127.
  { block: v6('2001::/32'), carried: (p) => [fromWords(p[2]!, p[3]!), fromWords(~p[6]! & 0xffff, ~p[7]! & 0xffff)] },
];

function fromWords(high: number, low: number): V4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV4(addr: V4): AddressClass {
  if (addr.match(LOOPBACK_V4)) return 'loopback';
  return REFUSED_V4.some((block) => addr.match(block)) ? 'special' : 'global';
}

function classifyV6(addr: V6): AddressClass {
  const parts = addr.parts;
  if (parts.every((p) => p === 0)) return 'special'; // ::/128 unspecified (RFC 4291 §2.5.2)
  if (parts.slice(0, 7).every((p) => p === 0) && parts[7] === 1) return 'loopback'; // ::1/128 (RFC 4291 §2.5.3)
  if (addr.match(MAPPED)) return classifyV4(addr.toIPv4Address());
  // Through a translator or a tunnel, a loopback IPv4 address is not this machine's: only global passes.
  const carrier = CARRIERS.find((c) => addr.match(c.block));
  if (carrier) return carrier.carried(parts).every((inner) => classifyV4(inner) === 'global') ? 'global' : 'special';
  if (!addr.match(GLOBAL_UNICAST_V6)) return 'special';
  return REFUSED_V6.some((block) => addr.match(block)) ? 'special' : 'global';
}

/** The class of an address (an IPv6 one may be written in brackets); null when the text is no address. */
export function classifyAddress(text: string): AddressClass | null {
  let addr: V4 | V6;
  try {
    addr = ipaddr.parse(text.replace(/^\[|\]$/g, ''));
  } catch {
    return null;
  }
  return addr.kind() === 'ipv4' ? classifyV4(addr as V4) : classifyV6(addr as V6);
}
