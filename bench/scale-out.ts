// One instance against two behind HAProxy (deploy/haproxy.cfg), the detail route with 1,000 keys in
// rotation (every request another limits owner, counted exactly in the store). On a machine where
// the instances, PostgreSQL, HAProxy and the load generator share the same cores, the ratio shows
// the balancer's overhead and that nothing goes wrong across instances, not scaling. Measured in
// rounds in changing order (the machine's load drifts), with a third measurement each round: the
// same route through HAProxy to one instance. Two behind HAProxy ÷ one direct is the issue's
// figure (the balancer's hop and the second instance together); ÷ one behind HAProxy isolates
// what a second instance costs or gains; one behind ÷ one direct is the hop's own cost. Each ratio
// is the median round's. Afterwards the store's counts of the 1,000 owners are compared with the
// answers they got: the limits stay exact.
import { startBalancer } from './balancer.ts';
import type { CapacityRun } from './capacity.ts';
import { type Costed, measureCosted } from './costed.ts';
import type { CpuCost } from './capacity-model.ts';
import { type CountCheck, checkCounts, storedCounts } from './keys.ts';
import { median } from './guard-rounds.ts';
import { prime, type Target } from './measure.ts';
import type { Backends } from './proc.ts';

const ROUNDS = 3;
export const oneName = 'detail, 1,000 keys: one instance';
export const twoName = 'detail, 1,000 keys: two instances behind HAProxy';
export const oneBehindName = 'detail, 1,000 keys: one instance behind HAProxy';

export interface ScaleOut {
  measured: Costed[];
  /** Two behind HAProxy ÷ one direct, req/s: the median round's. */
  ratio: number;
  rounds: number[];
  /** Two behind HAProxy ÷ one behind HAProxy: the median round's. */
  twoOverOneBehind: number;
  /** One behind HAProxy ÷ one direct: the median round's. */
  oneBehindRatio: number;
  /** The CPU of the one instance's rounds, summed: the detail route's cost with 1,000 light owners. */
  detailManyKeys: CpuCost;
  haproxyMsPerRequest: number | null;
  /** Each instance's share of the two instances' CPU while both were behind HAProxy. */
  shares: number[];
  /**
   * CPU a request in each arrangement, ms (all rounds summed): the instances together, PostgreSQL's
   * backends and HAProxy. Where the second instance's loss goes: more CPU a request in the
   * instances (two event loops, each batching less), in PostgreSQL (counting batches half the
   * size), or in the balancer.
   */
  cpuPerRequest: Record<'one' | 'two' | 'behind', { instances: number; postgres: number | null; haproxy: number | null }>;
  counts: CountCheck;
  instances: Array<{ name: string; pid: number }>;
}

const sum = (list: Costed[], of: (k: Costed) => number | null | undefined) => list.reduce((n, k) => n + (of(k) ?? 0), 0);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

export async function compareOneWithTwo(c: CapacityRun & { backends: Backends }): Promise<ScaleOut> {
  const second = await c.startInstance('service 2');
  c.children.push(second);
  const [a, b] = [c.service, second];
  const pair = await startBalancer([a.url, b.url]);
  const single = await startBalancer([a.url]);
  try {
    const target = (name: string, url: string): Target => ({
      name,
      url,
      paths: c.records.map((r) => `/api/v1/matters/${encodeURIComponent(r)}`),
      rotate: { headers: c.many.keys.map((k) => ({ authorization: `Bearer ${k}` })), answered: c.many.answered },
    });
    // The second instance starts with nothing in memory, where the first has served every record and
    // key: each record and each key once through it first (before the counts are read), so the rounds
    // compare instances holding the same.
    const paths = c.records.map((r) => `/api/v1/matters/${encodeURIComponent(r)}`);
    await prime({ name: 'second instance', url: b.url, paths, headers: c.auth });
    for (const [i, key] of c.many.keys.entries()) {
      const res = await fetch(`${b.url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`priming the second instance with key ${i}: ${res.status}`);
    }
    const countsBefore = await storedCounts(c.databaseUrl, c.many.accountIds);
    const answeredBefore = [...c.many.answered];
    const pids = { a: a.pid, b: b.pid, haproxy: pair.pid };
    const measured = { one: [] as Costed[], two: [] as Costed[], behind: [] as Costed[] };
    const orders = [
      ['one', 'two', 'behind'],
      ['two', 'behind', 'one'],
      ['behind', 'one', 'two'],
    ] as const;
    for (let round = 0; round < ROUNDS; round++) {
      for (const which of orders[round % orders.length]!) {
        const k =
          which === 'one'
            ? await measureCosted(target(oneName, a.url), c.options, pids, c.backends)
            : which === 'two'
              ? await measureCosted(target(twoName, pair.url), c.options, pids, c.backends)
              : await measureCosted(target(oneBehindName, single.url), c.options, { a: a.pid, haproxy: single.pid }, c.backends);
        measured[which].push(k);
        for (const child of c.children) if (!child.alive()) throw new Error(`${child.name} died during the run`);
      }
    }
    const { one: ones, two: twos, behind } = measured;
    // Light owners are counted exactly, but any block of a busy one goes back after 100 ms idle.
    await new Promise((r) => setTimeout(r, 500));
    const answered = c.many.answered.map((n, i) => n - answeredBefore[i]!);
    // Each measurement is a warm-up and a timed load, each ending with up to `connections` requests in flight.
    const loads = 3 * ROUNDS * (c.options.warmupSeconds > 0 ? 2 : 1);
    const counts = checkCounts(countsBefore, await storedCounts(c.databaseUrl, c.many.accountIds), answered, loads * c.options.connections);

    const ratios = ones.map((one, i) => twos[i]!.measurement.rps / one.measurement.rps);
    const ratio = median(ratios);
    const twoRequests = sum(twos, (k) => k.measurement.requests);
    const [cpuA, cpuB] = [sum(twos, (k) => k.processMs.a), sum(twos, (k) => k.processMs.b)];
    // One direct counts the first instance alone (the second idles meanwhile; the pair's HAProxy too).
    const perRequest = (list: Costed[], alone = false) => {
      const requests = sum(list, (k) => k.measurement.requests);
      const per = (ms: number) => (requests > 0 ? round3(ms / requests) : 0);
      return {
        instances: per(sum(list, (k) => (k.processMs.a ?? 0) + (alone ? 0 : (k.processMs.b ?? 0)))),
        postgres: list.some((k) => k.postgresMs === null) ? null : per(sum(list, (k) => k.postgresMs)),
        haproxy: alone || list.some((k) => k.processMs.haproxy == null) ? null : per(sum(list, (k) => k.processMs.haproxy)),
      };
    };
    return {
      measured: [...ones, ...twos, ...behind],
      ratio,
      rounds: ratios.map(round3),
      twoOverOneBehind: median(behind.map((k, i) => twos[i]!.measurement.rps / k.measurement.rps)),
      oneBehindRatio: median(ones.map((k, i) => behind[i]!.measurement.rps / k.measurement.rps)),
      detailManyKeys: {
        name: `${oneName} (light owners, counted exactly)`,
        requests: sum(ones, (k) => k.measurement.requests),
        serviceMs: sum(ones, (k) => k.processMs.a),
        postgresMs: ones.some((k) => k.postgresMs === null) ? null : sum(ones, (k) => k.postgresMs),
      },
      haproxyMsPerRequest: twoRequests > 0 ? round3(sum(twos, (k) => k.processMs.haproxy) / twoRequests) : null,
      shares: cpuA + cpuB > 0 ? [round3(cpuA / (cpuA + cpuB)), round3(cpuB / (cpuA + cpuB))] : [],
      cpuPerRequest: { one: perRequest(ones, true), two: perRequest(twos), behind: perRequest(behind) },
      counts,
      instances: [
        { name: a.name, pid: a.pid },
        { name: b.name, pid: b.pid },
      ],
    };
  } finally {
    await pair.stop();
    await single.stop();
  }
}
