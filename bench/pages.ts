// The public matter page in the benchmark: its HTML and its Markdown variant as the service serves
// them (no credential; kept in memory after the warm-up, since 2,000 records are asked in turn),
// and the same page answered by the database every time (pages-server.ts, under /db).
import type { Target } from './measure.ts';

export const pageNames = {
  html: 'GET /matters/{record} (page)',
  markdown: 'GET /matters/{record}.md',
  database: 'same page, answered by the database',
} as const;

export function pageTargets(serviceUrl: string, pagesUrl: string, records: readonly string[]): Array<{ target: Target; expect: (body: any) => boolean }> {
  const paths = records.map((r) => `/matters/${encodeURIComponent(r)}`);
  const isPage = (b: any) => typeof b === 'string' && b.startsWith('<!doctype html>') && b.includes('Status timeline');
  return [
    { target: { name: pageNames.html, url: serviceUrl, paths }, expect: isPage },
    { target: { name: pageNames.markdown, url: serviceUrl, paths: paths.map((p) => `${p}.md`) }, expect: (b) => typeof b === 'string' && b.startsWith('# ') },
    { target: { name: pageNames.database, url: pagesUrl, paths: paths.map((p) => `/db${p}`) }, expect: isPage },
  ];
}
