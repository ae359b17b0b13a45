// IP addresses and ranges: normalising the caller's address, validating a key's allowed IPs and
// matching one against the other. Lives in the kernel because both the HTTP surface (client
// address) and the credentials module (allowed IPs) need it.
import ipaddr from 'ipaddr.js';

/** Canonical text of an address; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes IPv4. */
export function normalizeIp(ip: string): string {
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

/**
 * The network a limit per client address counts: an IPv4 address itself, an IPv6 address's /64
 * (one subscriber's usual allocation, RFC 6177 §2, so rotating addresses within it gains nothing).
 * Text that is no address is its own group.
 */
export function addressGroup(ip: string): string {
  const normal = normalizeIp(ip);
  try {
    const parsed = ipaddr.parse(normal);
    if (parsed.kind() === 'ipv4') return normal;
    const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
    return `${ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`).toString()}/64`;
  } catch {
    return normal;
  }
}

export function isInRanges(ip: string, ranges: readonly string[]): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(normalizeIp(ip));
  } catch {
    return false;
  }
  for (const range of ranges) {
    try {
      if (range.includes('/')) {
        const [net, bits] = ipaddr.parseCIDR(range);
        if (addr.kind() === net.kind() && addr.match([net, bits] as never)) return true;
      } else {
        const one = ipaddr.parse(normalizeIp(range));
        if (one.kind() === addr.kind() && one.toNormalizedString() === addr.toNormalizedString()) return true;
      }
    } catch {
      // A malformed stored range matches nothing; ranges are validated when keys are made.
    }
  }
  return false;
}

function strictAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // Only dotted four-part decimal IPv4: ipaddr.js also accepts forms like "10.1" or "0x0a.1.2.3",
  // which people rarely mean and which would read differently in a list.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/**
 * Validates one allowed-IP entry (an address or a CIDR range) and returns its canonical form, or
 * null when it is not one. A range is stored by its network address; IPv4-mapped IPv6 forms are
 * stored as IPv4, because that is how the caller's address is compared.
 */
export function canonicalIpRange(entry: string): string | null {
  const text = entry.trim();
  const slash = text.indexOf('/');
  if (slash < 0) {
    const addr = strictAddress(text);
    return addr ? normalizeIp(addr.toString()) : null;
  }
  const addr = strictAddress(text.slice(0, slash));
  const bitsText = text.slice(slash + 1);
  if (!addr || !/^\d{1,3}$/.test(bitsText)) return null;
  let bits = Number(bitsText);
  if (bits > (addr.kind() === 'ipv4' ? 32 : 128)) return null;
  let base: ipaddr.IPv4 | ipaddr.IPv6 = addr;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    base = (addr as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const network =
    base.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${base.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${base.toString()}/${bits}`);
  return `${network.toString()}/${bits}`;
}
