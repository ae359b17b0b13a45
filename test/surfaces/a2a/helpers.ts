// A listening service for the A2A tests (the SDK client speaks HTTP to the URLs of the agent card,
// so BASE_URL must be where the service really listens), a local OpenAI-compatible model that
// answers at once or, for a question asking it, slowly, and SDK clients with a key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface ModelServer {
  url: string;
  close(): Promise<void>;
}

/** Answers `{ answer, citations: ["R1"] }` from the records it is given; "slowly" in a question waits 1.5 s. */
export async function startModel(): Promise<ModelServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const user: string = body.messages[1].content;
    const send = () => {
      if (res.destroyed) return;
      const content = JSON.stringify({ answer: `Answered from ${user.includes('"R1"') ? 'the records' : 'nothing'}.`, citations: ['R1'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    };
    if (!user.includes('slowly')) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, 1500);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function startListening(env: Record<string, string> = {}): Promise<{ t: TestContext; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestContext({ env: { BASE_URL: base, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

/** Fetch that presents the key, as the SDK's AuthenticationHandler does. */
export function keyFetch(key: string, seen?: string[]): typeof fetch {
  const recording: typeof fetch = async (input, init) => {
    if (seen && typeof init?.body === 'string') seen.push(JSON.parse(init.body).method);
    return fetch(input, init);
  };
  return createAuthenticatingFetchWithRetry(recording, {
    headers: async () => ({ Authorization: `Bearer ${key}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
}

/** The SDK's v1.0 client, from the agent card at the service's well-known URL. */
export async function a2aClient(base: string, key: string, seen?: string[]) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: keyFetch(key, seen) })],
      cardResolver: new DefaultAgentCardResolver(),
    }),
  );
  return factory.createFromUrl(base);
}

/** A message asking a question, as a v1.0 SendMessageRequest. */
export function question(text: string) {
  return SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
}
