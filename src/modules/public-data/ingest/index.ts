// Ingestion from the real upstream sources: what the CLI (`council ingest`) and the server call.
// One adapter per source; each run records its freshness in source_sync. A run reading recorded
// files (--from) records freshness but leaves the watermark alone: it has not read the live source.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import type { Adapter, AdapterRun } from './adapter.ts';
import { CAMPAIGN_FINANCE_BASE_URL, syncCampaignFinance } from './campaign-finance.ts';
import { COMMITTEE_HISTORY_BASE_URL, syncCommitteeHistory } from './committee-history.ts';
import { ELMS_BASE_URL, syncElms } from './elms.ts';
import type { HttpClientOptions } from './http-client.ts';
import { LEGISTAR_BASE_URL, syncLegistar } from './legistar.ts';
import { LOBBYING_BASE_URL, syncLobbying } from './lobbying.ts';
import { failSync, finishedWithinCutRun, finishSync, startSync } from './sync-state.ts';
import { createTransport } from './transport.ts';

export interface IngestReport {
  source: string;
  seen: number;
  changed: number;
  startedAt: string;
  finishedAt: string;
}

export interface RunOptions {
  from?: string;
  since?: string;
  baseUrl?: string;
  onProgress?: (line: string) => void;
  /** Told of every batch of records as it is counted (seen, changed). */
  onCount?: (seen: number, changed: number) => void;
  /** Stops the run: nothing more is fetched, and the run fails with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides of the HTTP client's pacing, timeout and retry settings for this run. */
  http?: Omit<HttpClientOptions, 'onProgress'>;
}

export interface Freshness {
  source: string;
  lastSuccessAt: string | null;
  lastStartedAt: string | null;
  lastError: string | null;
  recordsSeen: number;
}

export interface Ingest {
  sources: readonly string[];
  run(source: string, options: RunOptions): Promise<IngestReport>;
  loadSampleIfEmpty(onProgress: (line: string) => void): Promise<boolean>;
  freshness(): Promise<Freshness[]>;
}

interface SourceDef {
  name: string;
  adapter: Adapter;
  baseUrl: string;
  /** Minimum milliseconds between requests: each source's published or polite rate. */
  minIntervalMs: number;
}

export const SAMPLE_DIR = fileURLToPath(new URL('../../../../sample/', import.meta.url));

function resolveSource(source: string): SourceDef {
  const s = source.trim();
  if (s === 'elms') return { name: 'elms', adapter: syncElms, baseUrl: ELMS_BASE_URL, minIntervalMs: 250 };
  if (s === 'lobbying') return { name: 'lobbying', adapter: syncLobbying, baseUrl: LOBBYING_BASE_URL, minIntervalMs: 250 };
  if (s === 'campaign-finance' || s === 'campaign_finance') {
    return { name: 'campaign_finance', adapter: syncCampaignFinance, baseUrl: CAMPAIGN_FINANCE_BASE_URL, minIntervalMs: 1000 };
  }
  if (s === 'committee-history' || s === 'committee_history') {
    return { name: 'committee_history', adapter: syncCommitteeHistory, baseUrl: COMMITTEE_HISTORY_BASE_URL, minIntervalMs: 1000 };
  }
  const legistar = /^legistar:([a-z0-9-]+)$/i.exec(s);
  if (legistar) {
    const client = legistar[1]!.toLowerCase();
    return { name: `legistar:${client}`, adapter: syncLegistar(client), baseUrl: LEGISTAR_BASE_URL, minIntervalMs: 200 };
  }
  if (s === 'legistar') throw new AppError('invalid_request', 'legistar needs a client, e.g. legistar:chicago');
  throw new AppError(
    'invalid_request',
    `unknown source "${source}"; use one of: elms, legistar:<client>, lobbying, campaign-finance, committee-history, sample`,
  );
}

/** A source's name as source_sync records it ('campaign-finance' → 'campaign_finance'); throws for an unknown one. */
export function canonicalSource(source: string): string {
  return resolveSource(source).name;
}

/** --since: a date or date-time; returned as ISO (date-only stays a date). */
export function parseSince(since: string | undefined): string | null {
  if (since === undefined) return null;
  const s = since.trim();
  const shape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(s);
  // Date.parse rolls "2024-02-31" over to March; the calendar date must survive a round trip.
  const ok = shape && !Number.isNaN(Date.parse(s)) && new Date(`${s.slice(0, 10)}T00:00:00Z`).toISOString().slice(0, 10) === s.slice(0, 10);
  if (!ok) throw new AppError('invalid_request', `--since must be a date like 2024-01-31 (or an ISO date-time), got "${since}"`);
  return s.length === 10 ? s : new Date(s).toISOString();
}

export interface IngestHooks {
  /**
   * Told after each finished run (the CLI's, the admin socket's, a scheduled sync, the sample load)
   * with its report; it should only queue work (alerts send a job). Its failure is logged, never the run's.
   */
  finished?(report: IngestReport): Promise<void>;
}

export function createIngest(deps: ModuleDeps, hooks: IngestHooks = {}): Ingest {
  const { db, clock, config } = deps;

  async function told(report: IngestReport): Promise<IngestReport> {
    await hooks.finished?.(report).catch((err) => deps.log.warn({ err, source: report.source }, 'ingest: the finished hook failed'));
    return report;
  }

  async function runOne(def: SourceDef, options: RunOptions, recordAs = def.name): Promise<IngestReport> {
    const since = parseSince(options.since);
    const onProgress = options.onProgress ?? (() => {});
    const transport = createTransport({
      // INGEST_BASE_URL_<FAMILY> points a source at a mirror (or a local replay of recorded answers).
      baseUrl: options.baseUrl ?? config.ingest.baseUrls[def.name.split(':')[0]!] ?? def.baseUrl,
      from: options.from,
      minIntervalMs: def.minIntervalMs,
      ...options.http,
      onProgress,
      signal: options.signal,
    });
    const startedAt = clock.now().toISOString();
    const state = await startSync(db, clock, recordAs);
    const run: AdapterRun = {
      db,
      clock,
      transport,
      since: since ?? (options.from ? null : state.highWater),
      source: def.name,
      progress: onProgress,
      counted: options.onCount,
    };
    onProgress(`${def.name}: sync started${run.since ? ` (changes since ${run.since})` : ' (full)'}${options.from ? ' from recorded files' : ''}`);
    try {
      const outcome = await def.adapter(run);
      await finishSync(db, clock, recordAs, { ...outcome, highWater: options.from ? null : outcome.highWater });
      const finishedAt = clock.now().toISOString();
      onProgress(`${def.name}: finished, ${outcome.seen} seen, ${outcome.changed} changed`);
      return { source: recordAs, seen: outcome.seen, changed: outcome.changed, startedAt, finishedAt };
    } catch (err) {
      await failSync(db, clock, recordAs, err).catch(() => {});
      if (err instanceof AppError) throw err;
      throw new AppError('unavailable', `${def.name} sync failed: ${(err as Error).message}`);
    }
  }

  /** `resume`: a load cut off by a killed process goes on where it was, leaving out the parts it finished. */
  async function runSample(options: RunOptions, resume = false): Promise<IngestReport> {
    const dir = options.from ?? SAMPLE_DIR;
    if (!existsSync(dir)) throw new AppError('invalid_request', `sample directory not found: ${dir}`);
    const startedAt = clock.now().toISOString();
    const finished = resume ? await finishedWithinCutRun(db, 'sample') : new Set<string>();
    await startSync(db, clock, 'sample');
    let seen = 0;
    let changed = 0;
    try {
      for (const [name, sub] of [
        // Campaign committees before lobbying: contributions link to the alderpersons they name.
        ['elms', 'elms'],
        ['committee-history', 'committee-history'],
        ['campaign-finance', 'campaign-finance'],
        ['lobbying', 'lobbying'],
      ] as const) {
        const def = resolveSource(name);
        if (finished.has(def.name)) {
          options.onProgress?.(`${def.name}: loaded before the last start was cut off, not read again`);
          continue;
        }
        const report = await runOne(def, { ...options, from: `${dir.replace(/\/+$/, '')}/${sub}` });
        seen += report.seen;
        changed += report.changed;
      }
      await finishSync(db, clock, 'sample', { highWater: null, seen, changed });
    } catch (err) {
      await failSync(db, clock, 'sample', err).catch(() => {});
      throw err;
    }
    return { source: 'sample', seen, changed, startedAt, finishedAt: clock.now().toISOString() };
  }

  return {
    sources: ['elms', 'legistar', 'lobbying', 'campaign-finance', 'committee-history', 'sample'],
    async run(source, options) {
      if (source.trim() === 'sample') return told(await runSample(options));
      return told(await runOne(resolveSource(source), options));
    },
    async loadSampleIfEmpty(onProgress) {
      // Loaded unless no matters exist, or a sample load started and never finished (the process
      // was killed half-way): the ingest is idempotent, so running it again completes it; the
      // sources that load had finished are not read again (each commits its records file by file).
      const state = await sql<{ present: boolean; unfinished: boolean | null }>`select exists (select 1 from matters) as present,
        (select last_success_at is null or last_success_at < last_started_at from source_sync where source = 'sample') as unfinished`.execute(db);
      if (state.rows[0]?.present && !state.rows[0]?.unfinished) return false;
      await told(await runSample({ onProgress }, true));
      return true;
    },
    async freshness() {
      const rows = await db.selectFrom('source_sync').selectAll().orderBy('source').execute();
      return rows.map((r) => ({
        source: r.source,
        lastSuccessAt: r.last_success_at ? new Date(r.last_success_at).toISOString() : null,
        lastStartedAt: r.last_started_at ? new Date(r.last_started_at).toISOString() : null,
        lastError: r.last_error,
        recordsSeen: r.records_seen,
      }));
    },
  };
}
