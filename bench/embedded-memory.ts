// `node bench/embedded-memory.ts`: the embedded database's instance after start-up and a page
// crawl (issue 23's aim: ≤ 600 MiB resident). Starts the service as `npm start` does (its V8
// flags from package.json) on a fresh DATA_DIR with the bundled sample, waits for /ready (the
// sample is in), asks for the sitemap's pages one after another, then prints the resident set
// (VmRSS) and its peak (VmHWM) from /proc and the service's own breakdown (SIGUSR2,
// kernel/memory-report.ts), again after BENCH_IDLE_SECONDS without requests. Then it does the same
// with a second start on that directory (the database made, the sample in: an ordinary restart).
// The last line is the same as JSON.
//
// Settings (environment): BENCH_CRAWL_PAGES pages to ask for (400), taken in turn from each
// sitemap of the index so every kind of page is in the crawl; BENCH_IDLE_SECONDS (30).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { residentBytes } from './proc.ts';
import { startArgs, startChild, startEnv } from './servers.ts';

const pages = Number(process.env.BENCH_CRAWL_PAGES || 400);
if (!Number.isInteger(pages) || pages < 1) throw new Error('BENCH_CRAWL_PAGES must be a positive integer');
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS || 30);
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

const dataDir = mkdtempSync(join(tmpdir(), 'council-memory-'));

/** One start on `dataDir` as `npm start` does it, a crawl, and the figures. */
async function startAndCrawl(name: string) {
  const started = Date.now();
  // The sample load on a fresh directory takes minutes on a loaded machine.
  const service = await startChild(
    name,
    startArgs(),
    { ...process.env, ...startEnv(), DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    '/ready',
    1_800_000,
  );
  try {
    const readySeconds = (Date.now() - started) / 1000;
    const afterStart = residentBytes(service.pid);
    const local = (url: string) => {
      const u = new URL(url);
      return `${service.url}${u.pathname}${u.search}`;
    };
    // A page answered 503 (the request's database budget spent while the first bulk export, queued
    // after the sample load, holds the embedded database) is asked again after its Retry-After, as
    // a crawler would; how many times is reported.
    let retried = 0;
    const get = async (url: string): Promise<string> => {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(local(url));
        const body = await res.text();
        if (res.status === 200) return body;
        if (res.status !== 503 || attempt >= 20) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
        retried++;
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      }
    };
    const sitemaps = await Promise.all(locs(await get(`${service.url}/sitemap.xml`)).map(async (s) => locs(await get(s))));
    const crawl: string[] = [];
    for (let i = 0; crawl.length < pages && sitemaps.some((s) => i < s.length); i++) {
      for (const s of sitemaps) if (i < s.length && crawl.length < pages) crawl.push(s[i]!);
    }
    for (const url of crawl) await get(url);
    const afterCrawl = residentBytes(service.pid);
    const breakdown = await service.memory();
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const afterIdle = residentBytes(service.pid);
    const figures = {
      readySeconds,
      pagesCrawled: crawl.length,
      answers503Retried: retried,
      afterStartRssMiB: mib(afterStart.rss),
      afterCrawlRssMiB: mib(afterCrawl.rss),
      afterIdleRssMiB: mib(afterIdle.rss),
      peakRssMiB: mib(afterIdle.hwm),
      afterCrawlAtMost600MiB: afterCrawl.rss <= 600 * 2 ** 20,
      peakAtMost600MiB: afterIdle.hwm <= 600 * 2 ** 20,
      breakdownAfterCrawlMiB: breakdown && Object.fromEntries(Object.entries(breakdown).map(([k, v]) => [k, k.endsWith('Bytes') ? mib(v) : v])),
    };
    console.log(`${name}: ready after ${readySeconds.toFixed(0)} s, resident ${figures.afterStartRssMiB} MiB`);
    console.log(
      `${name}: after ${crawl.length} pages resident ${figures.afterCrawlRssMiB} MiB, ${idleSeconds} s later ${figures.afterIdleRssMiB} MiB; peak ${figures.peakRssMiB} MiB`,
    );
    return figures;
  } finally {
    await service.stop();
  }
}

try {
  const fresh = await startAndCrawl('fresh start (sample load)');
  const restart = await startAndCrawl('restart');
  const machine = {
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
    node: process.version,
  };
  console.log(JSON.stringify({ date: new Date().toISOString(), idleSeconds, fresh, restart, machine }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
