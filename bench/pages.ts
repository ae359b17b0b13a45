// The public matter page in the benchmark: its HTML and its Markdown variant as the service serves
// them (no credential) from memory — 200 records, each asked once before measuring (warmPages) —
// and the same page answered by the database every time (pages-server.ts, under /db), over all
// 2,000 records.
import type { Target } from './measure.ts';

export const pageNames = {
  html: 'GET /matters/{record} (page)',
  markdown: 'GET /matters/{record}.md',
  database: 'same page, answered by the database',
} as const;

const KEPT = 200;

export function pageTargets(serviceUrl: string, pagesUrl: string, records: readonly string[]): Array<{ target: Target; expect: (body: any) => boolean }> {
  const paths = records.map((r) => `/matters/${encodeURIComponent(r)}`);
  const kept = paths.slice(0, KEPT);
  const isPage = (b: any) => typeof b === 'string' && b.startsWith('<!doctype html>') && b.includes('Status timeline');
  return [
    { target: { name: pageNames.html, url: serviceUrl, paths: kept }, expect: isPage },
    { target: { name: pageNames.markdown, url: serviceUrl, paths: kept.map((p) => `${p}.md`) }, expect: (b) => typeof b === 'string' && b.startsWith('# ') },
    { target: { name: pageNames.database, url: pagesUrl, paths: paths.map((p) => `/db${p}`) }, expect: isPage },
  ];
}

/** Asks each kept page once (both representations), so the measured requests are answered from memory. */
export async function warmPages(serviceUrl: string, records: readonly string[]): Promise<void> {
  const paths = records.slice(0, KEPT).flatMap((r) => [`/matters/${encodeURIComponent(r)}`, `/matters/${encodeURIComponent(r)}.md`]);
  for (let i = 0; i < paths.length; i += 4) {
    await Promise.all(
      paths.slice(i, i + 4).map(async (p) => {
        const res = await fetch(`${serviceUrl}${p}`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`warming ${p}: ${res.status}`);
      }),
    );
  }
}
