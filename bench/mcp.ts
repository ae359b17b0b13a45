// The MCP tools/call of the matter detail in the benchmark: the same records as the REST detail
// route, each request a stateless 2026-07-28 tools/call (the per-request `_meta` envelope, answered
// as one JSON body), so the two differ only by the surface: MCP framing, the SDK's server and
// the tool's structured result, against Fastify's route and serializer.
import { cpus } from 'node:os';
import type { Generated } from './generate.ts';
import { type Measurement, type MeasureOptions, measure, type Target } from './measure.ts';
import { report } from './report.ts';
import type { Child } from './servers.ts';

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
      // Its results kept in memory as the REST route's answers are (both asked twice first).
      prime: true,
    },
    expect: (b) => typeof b?.result?.structuredContent?.recordNumber === 'string' && b.result.isError === undefined,
  };
}

/**
 * The aims of issue 23 for the MCP detail: its throughput at least half the REST route's (under
 * load, in the same run), and at most 0.3 ms more than the route at p50 (one connection).
 */
export function mcpAims(overheadP50: number, throughputRatio: number): Record<string, boolean> {
  return { mcpDetailAtLeastHalfOfRest: throughputRatio >= 0.5, mcpDetailWithin0_3msP50OfRest: overheadP50 <= 0.3 };
}

interface Comparison {
  ceiling: string;
  service: Child;
  auth: Record<string, string>;
  records: string[];
  options: Omit<MeasureOptions, 'connections'> & { connections: number };
  check(target: Target, expect: (body: any) => boolean): Promise<void>;
  children: Child[];
  generated: Generated;
}

/**
 * BENCH_ONLY=mcp: the ceiling, the REST detail route and the MCP tools/call of the same records,
 * each at one connection and then loaded, in one run; the report and its JSON line as the full
 * benchmark prints them, with the MCP aims only.
 */
export async function compareMcpWithRest(c: Comparison): Promise<number> {
  const detail: Target = {
    name: 'GET /api/v1/matters/{record}',
    url: c.service.url,
    paths: c.records.map((r) => `/api/v1/matters/${encodeURIComponent(r)}`),
    headers: c.auth,
    prime: true,
  };
  const mcp = mcpDetailTarget(c.service.url, c.auth, c.records);
  const targets: Target[] = [{ name: 'ceiling (bare Fastify JSON)', url: c.ceiling, paths: ['/ceiling'] }, detail, mcp.target];
  await c.check(detail, (b) => typeof b?.recordNumber === 'string');
  await c.check(mcp.target, mcp.expect);
  const pass = async (connections: number): Promise<Measurement[]> => {
    const results: Measurement[] = [];
    for (const target of targets) {
      console.log(`measuring ${target.name} for ${c.options.seconds} s (${connections} connections, ${c.options.warmupSeconds} s warm-up)`);
      results.push(await measure(target, { ...c.options, connections }));
      for (const child of c.children) if (!child.alive()) throw new Error(`${child.name} died during the run`);
    }
    return results;
  };
  const latency = await pass(1);
  const load = await pass(c.options.connections);
  const overhead = latency[2]!.p50 - latency[1]!.p50;
  const failed = [...latency, ...load].filter((m) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0).map((m) => m.name);
  return report({
    routes: latency.map((m, i) => ({ name: m.name, latency: m, load: load[i]!, ratio: load[i]!.rps / load[0]!.rps })),
    mcpOverheadP50: overhead,
    aims: mcpAims(overhead, load[2]!.rps / load[1]!.rps),
    peakRssBytes: c.service.peakRss(),
    failed: [...new Set(failed)],
    settings: {
      ...c.options,
      latencyConnections: 1,
      only: 'mcp',
      records: c.records.length,
      mcpShareOfRest: Math.round((load[2]!.rps / load[1]!.rps) * 1000) / 1000,
    },
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version },
    generation: { reused: c.generated.reused, seconds: c.generated.seconds },
  });
}
