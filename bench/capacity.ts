// BENCH_ONLY=capacity: what a request costs and what that implies for a deployment.
//  1. CPU ms per request, in the service's process and in the PostgreSQL backends serving the
//     benchmark's database (bench/proc.ts), for the detail route, search, a team write (a v2
//     note, each with an Idempotency-Key of its own), an MCP tools/call and a GraphQL query, each
//     loaded on one instance; then the capacity model (bench/capacity-model.ts).
//  2. One instance against two behind HAProxy (bench/scale-out.ts), the detail route with 1,000
//     keys, the limits checked exact in the same run; the memory of each instance at the end.
import { cpus } from 'node:os';
import { ceilingName, detailName, searchName } from './aims.ts';
import { type Capacity, capacityOf } from './capacity-model.ts';
import type { Generated } from './generate.ts';
import { SERVICE_QUERY } from './graphql.ts';
import type { ManyKeys } from './keys.ts';
import { mcpDetailName, mcpDetailTarget } from './mcp.ts';
import { type Costed, measureCosted } from './costed.ts';
import type { MeasureOptions, Target } from './measure.ts';
import { databaseBackends, residentBytes } from './proc.ts';
import { report, type RouteFigures } from './report.ts';
import { compareOneWithTwo } from './scale-out.ts';
import type { Child } from './servers.ts';

export const writeName = 'POST /api/v2/team/notes (Idempotency-Key)';
export const graphqlName = 'POST /api/graphql (20 matters, sponsors, votes)';

export interface CapacityRun {
  databaseUrl: string;
  service: Child;
  ceiling: Child;
  /** Starts another instance as the first was started. */
  startInstance(name: string): Promise<Child>;
  auth: Record<string, string>;
  teamAuth: Record<string, string>;
  records: string[];
  searchPaths: string[];
  many: ManyKeys;
  options: MeasureOptions;
  check(target: Target, expect: (body: any) => boolean): Promise<void>;
  children: Child[];
  generated: Generated;
}

const isDetail = (b: any) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string';
const mib = (n: number) => Math.round(n / 2 ** 20);

export async function measureCapacity(c: CapacityRun): Promise<number> {
  const url = c.service.url;
  const mcp = mcpDetailTarget(url, c.auth, c.records);
  const routes: Array<{ target: Target; expect: (b: any) => boolean }> = [
    {
      target: { name: detailName, url, paths: c.records.map((r) => `/api/v1/matters/${encodeURIComponent(r)}`), headers: c.auth, prime: true },
      expect: isDetail,
    },
    { target: { name: searchName, url, paths: c.searchPaths, headers: c.auth }, expect: (b) => Array.isArray(b?.data) && b.data.length > 0 },
    {
      // A note on a matter, each request another matter and a new effect: the write as a team's
      // script sends it (a claim of the key, the note and the stored answer in one transaction).
      target: {
        name: writeName,
        url,
        paths: ['/api/v2/team/notes'],
        headers: c.teamAuth,
        bodies: c.records.map((r, i) => JSON.stringify({ body: `Benchmark note ${i}: call the sponsor's office.`, subject: { type: 'matter', refId: r } })),
        idempotent: true,
      },
      expect: (b) => typeof b?.data?.id === 'string' || typeof b?.id === 'string',
    },
    { target: { ...mcp.target, name: mcpDetailName }, expect: mcp.expect },
    {
      target: { name: graphqlName, url, paths: ['/api/graphql'], headers: c.auth, bodies: [JSON.stringify({ query: SERVICE_QUERY })] },
      expect: (b) => Array.isArray(b?.data?.matters?.data) && b.data.matters.data.length > 0,
    },
  ];
  for (const r of routes) await c.check(r.target, r.expect);
  const backends = await databaseBackends(c.databaseUrl);
  try {
    const ceiling = await measureCosted({ name: ceilingName, url: c.ceiling.url, paths: ['/ceiling'] }, c.options, {}, backends);
    const costed: Costed[] = [];
    for (const r of routes) {
      costed.push(await measureCosted(r.target, c.options, { service: c.service.pid }, backends));
      for (const child of c.children) if (!child.alive()) throw new Error(`${child.name} died during the run`);
    }
    const postgresCores = cpus().length;
    const model: Capacity[] = costed.map((k) =>
      capacityOf({ name: k.measurement.name, requests: k.measurement.requests, serviceMs: k.processMs.service ?? 0, postgresMs: k.postgresMs }, postgresCores),
    );
    const scale = await compareOneWithTwo({ ...c, backends });
    model.push(capacityOf(scale.detailManyKeys, postgresCores));
    const instances = scale.instances.map((i) => ({ name: i.name, ...residentBytes(i.pid) }));

    const lines = [
      'CPU per request (loaded, one instance) and the capacity it implies (a service core is about one instance):',
      ...model.map(
        (m) =>
          `  ${m.name}: service ${m.serviceCpuMsPerRequest.toFixed(3)} ms, PostgreSQL ${m.postgresCpuMsPerRequest?.toFixed(3) ?? 'n/a'} ms;` +
          ` ${m.rpsPerServiceCore} req/s per service core, ${m.rpsPerPostgresCore ?? 'unbounded'} per PostgreSQL core;` +
          ` one PostgreSQL core feeds ${m.instancesPerPostgresCore ?? 'any number of'} busy instances (${m.instancesPerPostgresServer ?? '—'} for ${postgresCores} cores)`,
      ),
      `one instance vs two behind HAProxy (detail route, 1,000 keys): ${scale.ratio.toFixed(2)}× (median of rounds ${scale.rounds.join(', ')}); two behind HAProxy ${scale.twoOverOneBehind.toFixed(2)}× of one behind it; one behind HAProxy ${scale.oneBehindRatio.toFixed(2)}× of direct`,
      `HAProxy CPU per request: ${scale.haproxyMsPerRequest?.toFixed(3) ?? 'n/a'} ms; share of the two instances' CPU: ${scale.shares.map((s) => `${(s * 100).toFixed(0)} %`).join(' / ')}`,
      `CPU a request (instances / PostgreSQL / HAProxy, ms): ${(['one', 'behind', 'two'] as const)
        .map((w) => {
          const c = scale.cpuPerRequest[w];
          return `${w === 'one' ? 'one direct' : w === 'behind' ? 'one behind HAProxy' : 'two behind HAProxy'} ${c.instances} / ${c.postgres ?? 'n/a'} / ${c.haproxy ?? '—'}`;
        })
        .join('; ')}`,
      `1,000 keys through the balancer: ${scale.counts.counted} counted for ${scale.counts.answered} answered, ${scale.counts.ownersOff} owners off (${scale.counts.exact ? 'exact' : 'NOT exact'})`,
      `memory per instance at the end: ${instances.map((i) => `${i.name} VmRSS ${mib(i.rss)} MiB (VmHWM ${mib(i.hwm)} MiB)`).join('; ')}`,
    ];
    const all = [ceiling, ...costed, ...scale.measured];
    const figures: RouteFigures[] = all.map((k) => ({
      name: k.measurement.name,
      latency: k.measurement,
      load: k.measurement,
      ratio: k.measurement.rps / ceiling.measurement.rps,
    }));
    const failed = all.map((k) => k.measurement).filter((m) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0);
    return report({
      routes: figures,
      lines,
      aims: { twoInstancesBehindHAProxyAtLeast0_9OfOne: scale.ratio >= 0.9, manyKeysCountedExactlyThroughHAProxy: scale.counts.exact },
      peakRssBytes: c.service.peakRss(),
      failed: [...new Set(failed.map((m) => m.name))],
      capacity: {
        model,
        postgresCores,
        cpu: costed.map((k) => ({ name: k.measurement.name, requests: k.measurement.requests, serviceMs: k.processMs.service, postgresMs: k.postgresMs })),
        oneVsTwo: {
          ratio: Math.round(scale.ratio * 1000) / 1000,
          rounds: scale.rounds,
          twoOverOneBehindHAProxy: Math.round(scale.twoOverOneBehind * 1000) / 1000,
          oneBehindHAProxyRatio: Math.round(scale.oneBehindRatio * 1000) / 1000,
        },
        haproxyCpuMsPerRequest: scale.haproxyMsPerRequest,
        instanceCpuShares: scale.shares,
        cpuPerRequest: scale.cpuPerRequest,
        manyKeysCounts: scale.counts,
        instances,
      },
      settings: { ...c.options, only: 'capacity', records: c.records.length, loadedOnly: true },
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, server: `PostgreSQL ${c.generated.serverVersion}` },
      generation: { reused: c.generated.reused, seconds: c.generated.seconds },
    });
  } finally {
    await backends.close();
  }
}
