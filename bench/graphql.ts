// GraphQL against PostGraphile: the same question — the 20 newest matters with their sponsors,
// roll calls and every vote — asked of the service's /api/graphql and of PostGraphile (v5, run here
// from npm as a devDependency) serving the same tables of the benchmark database, measured the same
// way; the figure is the service's throughput as a share of PostGraphile's. PostGraphile needs a
// PostgreSQL server: it uses the benchmark's (DATABASE_URL), which the benchmark needs anyway; when
// it cannot start, the comparison is skipped with the reason.
import { type MeasureOptions, type Measurement, measure, type Target } from './measure.ts';
import { type Child, startChild } from './servers.ts';

const LIMIT = 20;
const ROUNDS = 3;
const by = ([a, b]: [Measurement, Measurement]) => a.rps / b.rps;

/** The service's query. */
export const SERVICE_QUERY = `{ matters(limit: ${LIMIT}) { data { id recordNumber title sponsors { personId name role }
  rollCalls { id date actionName votes { personId value } } } } }`;

/** The same records and fields in PostGraphile's generated schema (newest first, then by id, as the service orders). */
export const POSTGRAPHILE_QUERY = `{ allMatters(first: ${LIMIT}, orderBy: [INTRODUCTION_DATE_DESC, ROW_ID_ASC]) { nodes { rowId recordNumber title
  matterSponsorsByMatterId { nodes { personId name role } }
  rollCallsByMatterId { nodes { rowId date actionName votesByRollCallId { nodes { personId value } } } } } } }`;

interface Shape {
  records: string[];
  sponsors: number;
  votes: number;
}

async function ask(url: string, headers: Record<string, string>, query: string): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(30_000),
  });
  const body: any = await res.json().catch(() => null);
  if (res.status !== 200 || !body?.data || body.errors) throw new Error(`${url} answered ${res.status} ${JSON.stringify(body)?.slice(0, 300)}`);
  return body.data;
}

const serviceShape = (d: any): Shape => ({
  records: d.matters.data.map((m: any) => m.recordNumber),
  sponsors: d.matters.data.reduce((n: number, m: any) => n + m.sponsors.length, 0),
  votes: d.matters.data.reduce((n: number, m: any) => n + m.rollCalls.reduce((k: number, r: any) => k + r.votes.length, 0), 0),
});
const postgraphileShape = (d: any): Shape => ({
  records: d.allMatters.nodes.map((m: any) => m.recordNumber),
  sponsors: d.allMatters.nodes.reduce((n: number, m: any) => n + m.matterSponsorsByMatterId.nodes.length, 0),
  votes: d.allMatters.nodes.reduce(
    (n: number, m: any) => n + m.rollCallsByMatterId.nodes.reduce((k: number, r: any) => k + r.votesByRollCallId.nodes.length, 0),
    0,
  ),
});

export interface GraphQLComparison {
  service: Measurement;
  postgraphile: Measurement;
  /** Service req/s ÷ PostGraphile req/s under the same load: the median of the rounds. */
  ratio: number;
  /** Each round's ratio. */
  rounds: number[];
  shape: Shape;
}

/** Measures both under `connections` connections; null (with the reason printed) when PostGraphile cannot run. */
export async function compareWithPostGraphile(
  serviceUrl: string,
  auth: Record<string, string>,
  databaseUrl: string,
  options: MeasureOptions,
): Promise<GraphQLComparison | null> {
  let postgraphile: Child;
  try {
    postgraphile = await startChild(
      'postgraphile',
      ['bench/postgraphile-server.ts'],
      { ...process.env, DATABASE_URL: databaseUrl, GRAPHILE_ENV: 'production' },
      '/graphql',
    );
  } catch (err) {
    console.log(
      `GraphQL vs PostGraphile skipped: PostGraphile did not start on ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message.split('\n')[0]})`,
    );
    return null;
  }
  try {
    const ours = serviceShape(await ask(`${serviceUrl}/api/graphql`, auth, SERVICE_QUERY));
    const theirs = postgraphileShape(await ask(`${postgraphile.url}/graphql`, {}, POSTGRAPHILE_QUERY));
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error(`the two answers differ: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    const body = (query: string) => [JSON.stringify({ query })];
    const targets: Target[] = [
      {
        name: `POST /api/graphql (${LIMIT} matters, sponsors, votes; loaded only)`,
        url: serviceUrl,
        paths: ['/api/graphql'],
        headers: auth,
        bodies: body(SERVICE_QUERY),
      },
      { name: 'PostGraphile, the same query (loaded only)', url: postgraphile.url, paths: ['/graphql'], bodies: body(POSTGRAPHILE_QUERY) },
    ];
    // The machine's load drifts during a run (other work shares it), so the two are measured in
    // turns, ROUNDS times, the order swapped each round; the ratio is the median of the rounds'
    // ratios, and each figure reported is that server's median round.
    const rounds: [Measurement, Measurement][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const pair: Measurement[] = [];
      for (const i of order) {
        const target = targets[i]!;
        console.log(
          `measuring ${target.name} for ${options.seconds} s (${options.connections} connections, ${options.warmupSeconds} s warm-up), round ${round + 1} of ${ROUNDS}`,
        );
        pair[i] = await measure(target, options);
      }
      rounds.push(pair as [Measurement, Measurement]);
    }
    const median = <T>(items: T[], by: (t: T) => number): T => [...items].sort((a, b) => by(a) - by(b))[Math.floor(items.length / 2)]!;
    const ratio = by(median(rounds, ([a, b]) => a.rps / b.rps));
    return {
      service: median(
        rounds.map((r) => r[0]),
        (m) => m.rps,
      ),
      postgraphile: median(
        rounds.map((r) => r[1]),
        (m) => m.rps,
      ),
      ratio,
      rounds: rounds.map(([a, b]) => Math.round((a.rps / b.rps) * 100) / 100),
      shape: ours,
    };
  } finally {
    await postgraphile.stop();
  }
}
