// A local webhook receiver: it checks every request's Standard Webhooks signature twice — with
// the `standardwebhooks` reference library and with node:crypto from the specification's own
// words — and keeps what arrived. Its answers can be scripted per request (fail the first N,
// redirect elsewhere).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedHook {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Whether the signature verified with the secret registered for this path. */
  verified: boolean;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** The secret to verify requests to `path` with. */
  secrets: Map<string, string>;
  /** How to answer the next requests to `path`: a status, or a redirect target. */
  script: Map<string, ({ status: number } | { redirect: string })[]>;
  close(): Promise<void>;
}

/** Standard Webhooks, "Verifying webhooks": HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed by the base64 secret after `whsec_`. */
export function verifyByHand(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** `onReceive`: called with each request kept, before it is answered. */
export async function startWebhookReceiver(options: { onReceive?: (hook: ReceivedHook) => void } = {}): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const secrets = new Map<string, string>();
  const script = new Map<string, ({ status: number } | { redirect: string })[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const secret = secrets.get(path);
      let verified = false;
      if (secret) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = verifyByHand(secret, headers['webhook-id'], headers['webhook-timestamp'], body, headers['webhook-signature']);
        } catch {
          verified = false;
        }
      }
      const hook = { path, id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, verified };
      received.push(hook);
      options.onReceive?.(hook);
      const next = script.get(path)?.shift();
      if (next && 'redirect' in next) {
        res.writeHead(307, { location: next.redirect });
        return res.end();
      }
      res.writeHead(next?.status ?? 204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    secrets,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
