// The caller's address for allowed-IP checks. X-Forwarded-For is believed only when the direct
// peer is a configured trusted proxy (TRUST_PROXY); otherwise anyone could claim any address.
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { isInRanges, normalizeIp as normalize } from '../../kernel/ip.ts';

// The peer's address, normalised once per connection: every request on a kept-alive connection
// asks for it (its database turns are taken as its address), and parsing it cost 2.3 µs a request.
const peers = new WeakMap<Socket, string>();

function peerOf(socket: Socket): string {
  let peer = peers.get(socket);
  if (peer === undefined) {
    peer = normalize(socket.remoteAddress ?? '');
    // A socket already closed has no address: not kept, so nothing stands for it later.
    if (peer !== '') peers.set(socket, peer);
  }
  return peer;
}

export function clientIp(request: FastifyRequest, trustedProxies: readonly string[]): string {
  const peer = peerOf(request.socket);
  if (trustedProxies.length === 0 || !isInRanges(peer, trustedProxies)) return peer;
  const forwarded = request.headers['x-forwarded-for'];
  const chain = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Walk from the nearest hop outwards, skipping our own proxies; the first other address is the client.
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normalize(chain[i]!);
    if (!isInRanges(hop, trustedProxies)) return hop;
  }
  return peer;
}

export { isInRanges, normalize as normalizeIp };
