// Hostile JSON-RPC bodies for the JSON-RPC surfaces (A2A, MCP): every body must be answered
// without a 5xx or an internal error (-32603), malformed JSON must be 400 and text/plain 415.
import type { FastifyInstance } from 'fastify';

/** Bodies that are no JSON-RPC request at all, sent to every JSON-RPC surface besides its own. */
const notRequests: unknown[] = [[], 'text', null, {}, { jsonrpc: '2.0' }, { jsonrpc: '2.0', id: 1, method: 123 }];

/** What went wrong, one line per body (empty when every body was answered properly). */
export async function hostileRpcFailures(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  bodies: unknown[],
  raws: string[],
): Promise<string[]> {
  const json = { ...headers, 'content-type': 'application/json' };
  const failures: string[] = [];
  for (const body of [...notRequests, ...bodies]) {
    const res = await app.inject({ method: 'POST', url, headers: json, payload: JSON.stringify(body) });
    if (res.statusCode >= 500) failures.push(`${res.statusCode} ${JSON.stringify(body).slice(0, 80)}: ${res.body.slice(0, 160)}`);
    else if (/"code":-32603/.test(res.body)) failures.push(`internal error ${JSON.stringify(body).slice(0, 80)}: ${res.body.slice(0, 160)}`);
  }
  for (const raw of raws) {
    const res = await app.inject({ method: 'POST', url, headers: json, payload: raw });
    if (res.statusCode !== 400) failures.push(`${res.statusCode} raw ${JSON.stringify(raw)}: ${res.body.slice(0, 160)}`);
  }
  const text = await app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hi' });
  if (text.statusCode !== 415) failures.push(`${text.statusCode} text/plain`);
  return failures;
}
