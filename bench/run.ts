// `npm run bench`: generates (or reuses) the synthetic council, starts the real service, a bare
// Fastify ceiling and the unguarded detail route as child processes on loopback, and measures
// each route with autocannon twice: one connection at a time (the latency a caller sees: the
// p50/p99 aims and the guard's cost), then many at once (throughput, as a share of the ceiling's).
// At saturation every latency is queueing (connections ÷ throughput), so latency aims are read
// from the first pass. Prints a table, the authentication overhead, and as the last line one
// JSON object with every figure. Any non-2xx response, error or timeout fails the run.
//
// Settings (environment): DATABASE_URL (default the local server's council_bench database),
// BENCH_DURATION seconds per route and pass (10), BENCH_WARMUP seconds (3), BENCH_CONNECTIONS
// for the throughput pass (20), BENCH_QUERY search terms separated by "|", BENCH_ONLY=mcp to
// measure only the MCP tools/call against the REST detail route, BENCH_ONLY=guard for the detail
// route with and without its guard and with 1,000 keys, BENCH_ONLY=search for search and votes,
// BENCH_ONLY=votes for a person's votes alone, BENCH_ONLY=capacity for CPU per request, the
// capacity model and one instance vs two behind HAProxy (bench/capacity.ts).
import { cpus, totalmem } from 'node:os';
import pg from 'pg';
import {
  answerNames,
  ceilingName,
  detailName,
  guardAims,
  headersName,
  manyKeysName,
  oauthName,
  searchAims,
  searchName,
  unguardedName,
  votesAims,
  votesName,
} from './aims.ts';
import { answerFixtures, answerTargets } from './answers.ts';
import { measureCapacity } from './capacity.ts';
import { DEFAULT_DATABASE_URL, generate } from './generate.ts';
import { EXTRA_GUARD_ROUNDS, type GuardShares, guardRounds, median } from './guard-rounds.ts';
import { compareWithPostGraphile } from './graphql.ts';
import { compareMcpWithRest, mcpAims, mcpDetailName, mcpDetailTarget } from './mcp.ts';
import { type Measurement, measure, type Target } from './measure.ts';
import { pageNames, pageTargets, warmPages } from './pages.ts';
import { checkCounts, KEY_COUNT, prepareKeys, storedCounts } from './keys.ts';
import { measureSubset, type Subset } from './only.ts';
import { prepareKey, prepareTeamKey } from './prepare-key.ts';
import { report, type RouteFigures } from './report.ts';
import { type Child, heapSnapshot, serviceArgs, startArgs, startChild, startEnv, startFlags } from './servers.ts';

function intEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
/** BENCH_ONLY=mcp measures only the MCP tools/call against the REST detail route (bench/mcp.ts); guard, search and votes a part (bench/only.ts). */
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== '' && !['mcp', 'guard', 'search', 'votes', 'capacity'].includes(only)) {
  throw new Error('BENCH_ONLY takes "mcp", "guard", "search", "votes", "capacity" or nothing');
}
const options = {
  seconds: intEnv('BENCH_DURATION', 10, 1, 600),
  warmupSeconds: intEnv('BENCH_WARMUP', 3, 0, 120),
  connections: intEnv('BENCH_CONNECTIONS', 20, 1, 1000),
};
// Terms of different selectivity (from about 1 % to 9 % of matters), requested in turn.
const queries = (process.env.BENCH_QUERY || 'speed humps|tavern|lead service line replacement|affordable housing')
  .split('|')
  .map((s) => s.trim())
  .filter(Boolean);

/** Records, people and search terms that exist in the generated data, with each term's hit count. */
async function fixtures() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const records = await client.query<{ r: string }>("select record_number as r from matters where source = 'bench' order by random() limit 2000");
    const people = await client.query<{ id: string }>("select id from people where source = 'bench' and kind = 'alderperson' order by id");
    const hits: Record<string, number> = {};
    for (const q of queries) {
      const r = await client.query<{ n: string }>(
        "select count(*)::text as n from matters where search @@ (websearch_to_tsquery('english', $1) || websearch_to_tsquery('simple', $1))",
        [q],
      );
      hits[q] = Number(r.rows[0]!.n);
      if (hits[q] === 0) throw new Error(`the search term "${q}" matches no matter`);
    }
    return { records: records.rows.map((r) => r.r), people: people.rows.map((r) => r.id), hits };
  } finally {
    await client.end();
  }
}

/** One request per target before measuring: the route answers 200 with data, not an error page. */
async function check(target: Target, expect: (body: any) => boolean): Promise<void> {
  const path = target.paths[0]!;
  const headers = { ...target.headers, ...target.rotate?.headers[0] };
  const post = target.bodies ? { method: 'POST', body: target.bodies[0]!, headers: { ...headers, 'content-type': 'application/json' } } : { headers };
  const res = await fetch(`${target.url}${path}`, { ...post, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A page (HTML or Markdown): checked as text.
  }
  if (res.status < 200 || res.status > 299 || !expect(body)) {
    throw new Error(`${target.name}: ${post.body ? `POST ${post.body}` : `GET ${path}`} answered ${res.status} ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  if (target.rotate) target.rotate.answered[0]! += 1;
}

const children: Child[] = [];
const byName = (list: Measurement[], name: string) => list.find((m) => m.name === name)!;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
async function main(): Promise<number> {
  const generated = await generate(databaseUrl, (line) => console.log(line));
  const data = await fixtures();
  const answers = await answerFixtures(databaseUrl, queries);
  const { key, accessToken } = await prepareKey(databaseUrl);
  const many = only === 'mcp' || only === 'search' || only === 'votes' ? null : await prepareKeys(databaseUrl);
  const countsBefore = many ? await storedCounts(databaseUrl, many.accountIds) : [];

  const serviceEnv = {
    ...process.env,
    ...startEnv(),
    DATABASE_URL: databaseUrl,
    LOAD_SAMPLE: 'false',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
  };
  // The service as `npm start` runs it, with the V8 flags of its start script (package.json).
  const startService = (name: string) => startChild(name, serviceArgs(), serviceEnv, '/health');
  const service = await startService('service');
  children.push(service);
  const ceiling = await startChild('ceiling', ['bench/ceiling-server.ts'], { ...process.env, NODE_ENV: 'production' }, '/ceiling');
  children.push(ceiling);
  if (only === 'mcp') {
    const auth = { authorization: `Bearer ${key}` };
    return compareMcpWithRest({ ceiling: ceiling.url, service, auth, records: data.records, options, check, children, generated });
  }
  const auth = { authorization: `Bearer ${key}` };
  const detailPaths = data.records.map((r) => `/api/v1/matters/${encodeURIComponent(r)}`);
  // Search and votes are measured as the database answers them: every request is a URL of its
  // own (an `updated_since` long before any record, one second apart, keeps every row), so no
  // in-memory answer can serve it. The service would keep a repeated query's answer.
  const distinct = (paths: string[]) =>
    Array.from({ length: 200_000 }, (_, i) => `${paths[i % paths.length]}&updated_since=${new Date(Date.UTC(1900, 0, 1) + i * 1000).toISOString()}`);
  const searchPaths = distinct(queries.map((q) => `/api/v1/matters?q=${encodeURIComponent(q)}`));
  if (only === 'capacity') {
    const teamAuth = { authorization: `Bearer ${await prepareTeamKey(databaseUrl)}` };
    const rest = {
      service,
      ceiling,
      startInstance: startService,
      auth,
      teamAuth,
      records: data.records,
      searchPaths,
      many: many!,
      options,
      check,
      children,
      generated,
    };
    return measureCapacity({ databaseUrl, ...rest });
  }
  const unguarded = await startChild('unguarded', [...startFlags(), 'bench/unguarded-server.ts'], serviceEnv, '/health');
  children.push(unguarded);
  const pagesServer = await startChild('pages', [...startFlags(), 'bench/pages-server.ts'], serviceEnv, '/health');
  children.push(pagesServer);
  const votesPaths = distinct(data.people.map((p) => `/api/v1/votes?person=${encodeURIComponent(p)}`));
  const targets: Array<{ target: Target; expect: (body: any) => boolean }> = [
    { target: { name: ceilingName, url: ceiling.url, paths: ['/ceiling'] }, expect: (b) => b?.status === 'ok' },
    {
      target: { name: detailName, url: service.url, paths: detailPaths, headers: auth, prime: true },
      expect: (b) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string',
    },
    {
      // Next to the key's figures (measured right after them): the same detail route with an OAuth
      // access token, verified like a key (same cache, same coherence).
      target: { name: oauthName, url: service.url, paths: detailPaths, headers: { authorization: `Bearer ${accessToken}` } },
      expect: (b) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string',
    },
    {
      target: { name: unguardedName, url: unguarded.url, paths: detailPaths, prime: true },
      expect: (b) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string',
    },
    {
      // The unguarded route with the seven limit headers an authenticated answer carries.
      target: { name: headersName, url: unguarded.url, paths: detailPaths.map((p) => `/headers${p}`), prime: true },
      expect: (b) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string',
    },
    {
      // Many light owners: each request another key (and limits owner), counted exactly in the store.
      target: {
        name: manyKeysName,
        url: service.url,
        paths: detailPaths,
        rotate: { headers: (many?.keys ?? []).map((k) => ({ authorization: `Bearer ${k}` })), answered: many?.answered ?? [] },
      },
      expect: (b) => typeof b?.recordNumber === 'string' || typeof b?.data?.recordNumber === 'string',
    },
    {
      target: { name: 'same, answered by the database', url: unguarded.url, paths: detailPaths.map((p) => `/db${p}`) },
      expect: (b) => typeof b?.recordNumber === 'string',
    },
    {
      target: { name: searchName, url: service.url, paths: searchPaths, headers: auth },
      expect: (b) => Array.isArray(b?.data) && b.data.length > 0,
    },
    {
      target: { name: votesName, url: service.url, paths: votesPaths, headers: auth },
      expect: (b) => Array.isArray(b?.data) && b.data.length > 0,
    },
    ...answerTargets(service.url, auth, answers),
    mcpDetailTarget(service.url, auth, data.records),
    ...pageTargets(service.url, pagesServer.url, data.records),
  ];

  // The guard is really on: the same request without the key is refused.
  const refused = await fetch(`${service.url}${detailPaths[0]}`, { signal: AbortSignal.timeout(10_000) });
  if (refused.status !== 401) throw new Error(`the service answered ${refused.status} without a credential; expected 401`);

  /** After the passes: what the store counted for each of the 1,000 owners against what they were answered. */
  const countCheck = async () => {
    if (!many) return null;
    // Light owners are counted exactly, but any block of a busy one goes back after 100 ms idle.
    await new Promise((r) => setTimeout(r, 500));
    // Requests cut in flight as each load of the 1,000 keys stops: both passes (a warm-up and a timed
    // load each), then the guard's extra rounds at full connections.
    const cut = 2 * (1 + options.connections) + EXTRA_GUARD_ROUNDS * 2 * options.connections;
    return checkCounts(countsBefore, await storedCounts(databaseUrl, many.accountIds), many.answered, cut);
  };
  const targetNamed = (name: string) => targets.find((t) => t.target.name === name)!.target;
  const roundsOfGuard = (load: (name: string) => Measurement) =>
    guardRounds(
      { detail: load(detailName), unguarded: load(unguardedName), manyKeys: load(manyKeysName), headers: load(headersName) },
      {
        detail: targetNamed(detailName),
        unguarded: targetNamed(unguardedName),
        manyKeys: targetNamed(manyKeysName),
        headers: targetNamed(headersName),
      },
      options,
    );
  let shares: GuardShares | null = null;
  // Each part: its targets (the ceiling first) and the aims it decides.
  const parts: Record<string, { names: string[]; aims: Subset['aims'] }> = {
    guard: { names: [ceilingName, detailName, unguardedName, headersName, manyKeysName], aims: (latency, load) => guardAims(latency, load, shares!) },
    search: { names: [ceilingName, searchName, votesName], aims: searchAims },
    votes: { names: [ceilingName, votesName], aims: votesAims },
  };
  const part = only ? parts[only] : undefined;
  if (only && part) {
    return measureSubset({
      name: only,
      targets: targets.filter((t) => part.names.includes(t.target.name)),
      options,
      check,
      children,
      service,
      generated,
      aims: part.aims,
      after: async (_latency, load) => {
        if (only === 'guard') shares = await roundsOfGuard(load);
        return { manyKeysCounts: await countCheck(), ...(shares ? { guardShares: shares } : {}) };
      },
    });
  }
  for (const t of targets) await check(t.target, t.expect);
  await warmPages(service.url, data.records);
  const pass = async (connections: number): Promise<Measurement[]> => {
    const results: Measurement[] = [];
    for (const t of targets) {
      console.log(`measuring ${t.target.name} for ${options.seconds} s (${connections} connections, ${options.warmupSeconds} s warm-up)`);
      results.push(await measure(t.target, { ...options, connections }));
      for (const c of children) if (!c.alive()) throw new Error(`${c.name} died during the run`);
    }
    return results;
  };
  const latency = await pass(1);
  const load = await pass(options.connections);
  shares = await roundsOfGuard((name) => byName(load, name));
  const graphql = await compareWithPostGraphile(service.url, auth, databaseUrl, options);
  const peakRss = service.peakRss();
  const memory = await service.memory();
  const snapshot = await heapSnapshot(service);
  if (snapshot) console.log(`heap snapshot of the service: ${snapshot}`);

  const alone = (name: string) => byName(latency, name);
  const loaded = (name: string) => byName(load, name);
  const [ceil, detail, oauthLoaded] = [loaded(ceilingName), loaded(detailName), loaded(oauthName)];
  const [detailAlone, oauthAlone, bareAlone] = [alone(detailName), alone(oauthName), alone(unguardedName)];
  const [voteAnswerAlone, passageAnswerAlone] = answerNames.map(alone) as [Measurement, Measurement];
  const manyKeysCounts = await countCheck();
  const routes: RouteFigures[] = latency.map((m, i) => ({ name: m.name, latency: m, load: load[i]!, ratio: load[i]!.rps / ceil.rps }));
  if (graphql) {
    routes.push(...[graphql.service, graphql.postgraphile].map((m) => ({ name: m.name, latency: m, load: m, ratio: m.rps / ceil.rps })));
    console.log(`GraphQL vs PostGraphile on the same query: ratio ${graphql.ratio.toFixed(2)} (median of rounds ${graphql.rounds.join(', ')})`);
  }
  const failed = [...latency, ...load, ...(graphql ? [graphql.service, graphql.postgraphile] : [])].filter(
    (m) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0,
  );
  const authOverheadP50 = detailAlone.p50 - bareAlone.p50;
  const mcpOverheadP50 = byName(latency, mcpDetailName).p50 - detailAlone.p50;
  const mcpLoaded = byName(load, mcpDetailName);
  return report({
    routes,
    authOverheadP50,
    mcpOverheadP50,
    aims: {
      detailAtLeastHalfCeiling: detail.rps / ceil.rps >= 0.5,
      searchP99AtMost50ms: alone(searchName).p99 <= 50,
      ...guardAims(alone, loaded, shares),
      manyKeysCountedExactly: manyKeysCounts?.exact === true,
      peakRssAtMost400MiB: peakRss <= 400 * 2 ** 20,
      ...searchAims(alone, loaded),
      authOverheadAtMost1msP50: authOverheadP50 <= 1,
      extractiveAnswerP50AtMost100ms: voteAnswerAlone.p50 <= 100 && passageAnswerAlone.p50 <= 100,
      ...mcpAims(mcpOverheadP50, mcpLoaded.rps / detail.rps),
      matterPageAtLeastHalfCeiling: byName(load, pageNames.html).rps / ceil.rps >= 0.5 && byName(load, pageNames.markdown).rps / ceil.rps >= 0.5,
      matterPageFromDatabaseP99AtMost25ms: byName(latency, pageNames.database).p99 <= 25,
      // Within the run's noise (0.05 ms or 10 % at p50, 10 % of throughput) of the same route with a key.
      oauthTokenCostsNoMoreThanKey: oauthAlone.p50 <= detailAlone.p50 + Math.max(0.05, detailAlone.p50 * 0.1) && oauthLoaded.rps >= detail.rps * 0.9,
      ...(graphql ? { graphqlAtLeastPostGraphile: graphql.ratio >= 1 } : {}),
    },
    peakRssBytes: peakRss,
    failed: [...new Set(failed.map((m) => m.name))],
    settings: {
      ...options,
      latencyConnections: 1,
      graphqlVsPostGraphile: graphql ? { ratio: Math.round(graphql.ratio * 100) / 100, rounds: graphql.rounds } : null,
      queries,
      queryHits: data.hits,
      records: data.records.length,
      people: data.people.length,
      answerQuestions: answers.votes.length + answers.passages.length,
      serviceMemory: memory,
      serviceStart: [...Object.entries(startEnv()).map(([k, v]) => `${k}=${v}`), ...startArgs().slice(0, -2)].join(' '),
      manyKeys: KEY_COUNT,
      manyKeysCounts,
      guardedShareOfUnguarded: round3(median(shares.guarded)),
      manyKeysShareOfUnguarded: round3(median(shares.manyKeys)),
      headersShareOfUnguarded: round3(median(shares.headers)),
      guardShares: { guarded: shares.guarded.map(round3), manyKeys: shares.manyKeys.map(round3), headers: shares.headers.map(round3) },
    },
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryBytes: totalmem(),
      node: process.version,
      database: { server: `PostgreSQL ${generated.serverVersion}`, bytes: generated.databaseBytes, counts: generated.counts },
    },
    generation: { reused: generated.reused, seconds: generated.seconds },
  });
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`);
} finally {
  for (const c of children) await c.stop();
}
process.exit(code);
