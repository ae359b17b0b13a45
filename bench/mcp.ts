// The MCP tools/call of the matter detail in the benchmark: the same records as the REST detail
// route, each request a stateless 2026-07-28 tools/call (the per-request `_meta` envelope, answered
// as one JSON body), so the two differ only by the surface: MCP framing, the SDK's server and
// the tool's structured result, against Fastify's route and serializer.
import type { Target } from './measure.ts';

const PROTOCOL = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'council-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The measurement's name, by which the run finds it among the others. */
export const mcpDetailName = 'MCP tools/call matters_read';

export function mcpDetailTarget(url: string, auth: Record<string, string>, records: string[]): { target: Target; expect: (b: any) => boolean } {
  const bodies = records.map((record, id) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'matters_read', arguments: { record }, _meta: envelope } }),
  );
  return {
    target: {
      name: mcpDetailName,
      url,
      paths: ['/mcp'],
      // The 2026-07-28 routing headers repeat the body's method and tool name.
      headers: {
        ...auth,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        'mcp-method': 'tools/call',
        'mcp-name': 'matters_read',
      },
      bodies,
    },
    expect: (b) => typeof b?.result?.structuredContent?.recordNumber === 'string' && b.result.isError === undefined,
  };
}
