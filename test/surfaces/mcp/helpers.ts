// The MCP SDK client (v2) over real HTTP with a credential, in either protocol era: 'legacy' (the
// 2025 initialize handshake, the client's default) or 'auto' (negotiates the 2026-07-28 revision
// with server/discover). And a raw JSON-RPC POST for what the SDK client would never send.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export type Era = 'legacy' | 'auto';

export async function connect(base: string, key: string | null, era: Era = 'legacy'): Promise<Client> {
  const client = new Client({ name: 'council-tracker-tests', version: '1.0.0' }, { versionNegotiation: { mode: era } });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** One JSON-RPC request to /mcp as a 2025 client sends it after initialize (stateless: no session). */
export function rpc(app: FastifyInstance, method: string, params: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** The JSON-RPC message of an answer, sent as JSON or as one SSE `message` event. */
export function messageOf(res: LightMyRequestResponse): any {
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    const data = res.body.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
    if (!data) throw new Error(`no message in the stream: ${res.body}`);
    return JSON.parse(data.slice(6));
  }
  return res.json();
}
