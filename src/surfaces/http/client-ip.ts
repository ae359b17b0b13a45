// The caller's address for allowed-IP checks. X-Forwarded-For is believed only when the direct
// peer is a configured trusted proxy (TRUST_PROXY); otherwise anyone could claim any address.
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

function normalize(ip: string): string {
  try {
    const parsed = ipaddr.parse(ip);
    // An IPv4 client reaching a dual-stack socket appears as ::ffff:a.b.c.d.
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (parsed as ipaddr.IPv6).toIPv4Address().toString();
    }
    return parsed.toString();
  } catch {
    return ip;
  }
}

export function isInRanges(ip: string, ranges: readonly string[]): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(normalize(ip));
  } catch {
    return false;
  }
  for (const range of ranges) {
    try {
      if (range.includes('/')) {
        const [net, bits] = ipaddr.parseCIDR(range);
        if (addr.kind() === net.kind() && addr.match([net, bits] as never)) return true;
      } else {
        const one = ipaddr.parse(normalize(range));
        if (one.kind() === addr.kind() && one.toNormalizedString() === addr.toNormalizedString()) return true;
      }
    } catch {
      // A malformed stored range matches nothing; ranges are validated when keys are made.
    }
  }
  return false;
}

export function clientIp(request: FastifyRequest, trustedProxies: readonly string[]): string {
  const peer = normalize(request.socket.remoteAddress ?? '');
  if (trustedProxies.length === 0 || !isInRanges(peer, trustedProxies)) return peer;
  const forwarded = request.headers['x-forwarded-for'];
  const chain = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  // Walk from the nearest hop outwards, skipping our own proxies; the first other address is the client.
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normalize(chain[i]!);
    if (!isInRanges(hop, trustedProxies)) return hop;
  }
  return peer;
}

export { normalize as normalizeIp };
