// The host names this service answers to on its local-only paths: the public URL's and the
// loopback names. A DNS rebinding page reaches the service under the attacker's own host name (one
// that resolves to this machine), so its requests name that host, never one of these.
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function servedHostnames(baseUrl: string): string[] {
  return [...new Set([new URL(baseUrl).hostname, ...LOOPBACK_NAMES])];
}

/** Whether a Host header (RFC 9110 §7.2: host and optional port) names one of `hostnames`. */
export function namesServedHost(host: string | undefined, hostnames: readonly string[]): boolean {
  if (!host) return false;
  try {
    const url = new URL(`http://${host}`);
    // Only host[:port]: anything else in the header (a path, credentials) makes it no Host at all.
    return url.host.toLowerCase() === host.toLowerCase().replace(/:80$/, '') && hostnames.includes(url.hostname);
  } catch {
    return false;
  }
}
