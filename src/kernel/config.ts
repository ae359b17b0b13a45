// One env schema → typed Config (decisions.md, "Running it"). Read once at start-up.
import { join, resolve } from 'node:path';
import { DEFAULT_REQUEST_DB_BUDGET_MS } from './db-budget.ts';

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** An OpenAI-compatible chat endpoint; `timeoutMs` bounds each call to it. */
  ai: { baseUrl: string | null; apiKey: string | null; model: string | null; timeoutMs: number };
  nodeEnv: string;
  /**
   * The database time one request may use, in milliseconds (REQUEST_DB_BUDGET_MS): waiting for a
   * connection plus running statements; each of its statements runs under a statement_timeout
   * this long on PostgreSQL (kernel/db-budget.ts).
   */
  requestDbBudgetMs: number;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed (comma-separated IPs/CIDRs). */
  trustProxy: string[];
  /** Load the bundled Chicago sample on first start when the database holds no public data. */
  loadSample: boolean;
  ttl: {
    registration: number;
    claimInterval: number;
    accessToken: number;
    refreshToken: number;
    signinLink: number;
  };
  /**
   * Dynamic client registration (modules/credentials/oauth): clients registered per client address in an hour,
   * and how old a client that never got a grant may grow before the clean-up deletes it.
   */
  oauth: { registrationsPerHour: number; unusedClientTtlSeconds: number };
  /** Sign-in links one client address may ask for in an hour (modules/sessions). */
  signin: { perClientPerHour: number };
  /** The job queue (kernel/jobs.ts). */
  jobs: { stopGraceSeconds: number };
  /**
   * At SIGTERM, `/ready` answers 503 for this long before the listener closes, so a load balancer
   * checking `/ready` stops sending new requests first (0: close at once, as one instance wants).
   */
  drainSeconds: number;
  /** Where ingestion fetches each source from, and which sources sync on a schedule. */
  ingest: IngestConfig;
  /**
   * Requests to URLs people and agents give (kernel/safe-fetch.ts). `allowLoopback` lets them
   * reach http and loopback addresses: development and tests only, refused in production.
   */
  outbound: { allowLoopback: boolean };
  /** Webhook deliveries (modules/webhooks): retries with backoff, each attempt's time limit. */
  webhooks: WebhookConfig;
  /** Alerts on follows (modules/alerts): email retries, and when daily and weekly digests go out (UTC cron). */
  alerts: { retry: { limit: number; delaySeconds: number }; dailyCron: string; weeklyCron: string };
  /** Bulk exports (modules/bulk): where they are written and served from, and when (UTC cron; null: never by itself). */
  bulk: { dir: string; cron: string | null };
}

export interface WebhookConfig {
  /** Attempts after the first, and the first retry's delay (doubling with jitter). */
  retry: { limit: number; delaySeconds: number; maxDelaySeconds: number };
  timeoutMs: number;
  /** How often each instance hands deliveries that have no job yet to the queue. */
  sweepSeconds: number;
}

export interface IngestConfig {
  /** The sources synced on a schedule, with their cron expressions: empty unless INGEST_SCHEDULE=on. */
  schedules: { source: string; cron: string }[];
  /** The time zone the cron expressions are read in. */
  timezone: string;
  /** A failed scheduled sync is retried this many times, after delaySeconds doubling each time. */
  retry: { limit: number; delaySeconds: number };
  /** Base URL overrides by source family (elms, lobbying, campaign_finance, legistar). */
  baseUrls: Partial<Record<string, string>>;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function str(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  return raw;
}

// Scheduled ingestion (README "Ingesting"). Each family's cron can be set, or `off`; Legistar
// cities are scheduled only when INGEST_LEGISTAR_CLIENTS names them.
const ingestFamilies = ['elms', 'lobbying', 'campaign_finance', 'legistar'] as const;
const defaultCron: Record<(typeof ingestFamilies)[number], string> = {
  elms: '7 * * * *',
  lobbying: '20 6 * * *',
  campaign_finance: '40 6 * * *',
  legistar: '37 * * * *',
};

function ingestConfig(env: NodeJS.ProcessEnv): IngestConfig {
  const schedule = (str(env, 'INGEST_SCHEDULE') ?? 'off').toLowerCase();
  if (!['on', 'off', 'true', 'false'].includes(schedule)) throw new ConfigError(`INGEST_SCHEDULE must be on or off, got "${schedule}"`);
  const cron = (family: (typeof ingestFamilies)[number]): string | null => {
    const name = `INGEST_CRON_${family.toUpperCase()}`;
    const raw = str(env, name) ?? defaultCron[family];
    if (raw.toLowerCase() === 'off') return null;
    // pg-boss reads it at start-up (cron-parser); here only its shape, so a typo fails early.
    if (!/^\S+(\s+\S+){4,5}$/.test(raw)) throw new ConfigError(`${name} must be a cron expression like "7 * * * *" or off, got "${raw}"`);
    return raw;
  };
  const clients = (str(env, 'INGEST_LEGISTAR_CLIENTS') ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  for (const c of clients) if (!/^[a-z0-9-]+$/.test(c)) throw new ConfigError(`INGEST_LEGISTAR_CLIENTS: "${c}" is not a Legistar client name`);
  const timezone = str(env, 'INGEST_TIMEZONE') ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ConfigError(`INGEST_TIMEZONE is not a time zone: "${timezone}"`);
  }
  const candidates = [
    ...(['elms', 'lobbying', 'campaign_finance'] as const).map((f) => ({ source: f as string, cron: cron(f) })),
    ...clients.map((c) => ({ source: `legistar:${c}`, cron: cron('legistar') })),
  ];
  const baseUrls: IngestConfig['baseUrls'] = {};
  for (const f of ingestFamilies) {
    const u = url(env, `INGEST_BASE_URL_${f.toUpperCase()}`, ['http:', 'https:']);
    if (u) baseUrls[f] = u;
  }
  return {
    schedules: schedule === 'on' || schedule === 'true' ? candidates.filter((c): c is { source: string; cron: string } => c.cron !== null) : [],
    timezone,
    retry: { limit: int(env, 'INGEST_RETRY_LIMIT', 5, 0, 100), delaySeconds: int(env, 'INGEST_RETRY_DELAY_SECONDS', 60, 1, 86_400) },
    baseUrls,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '0.0.0.0';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    baseUrl,
    dataDir: resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: str(env, 'MAIL_FROM') ?? 'Council Tracker <no-reply@localhost>',
    ai: {
      baseUrl: url(env, 'AI_BASE_URL', ['http:', 'https:']),
      apiKey: str(env, 'AI_API_KEY'),
      model: str(env, 'AI_MODEL'),
      timeoutMs: int(env, 'AI_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    nodeEnv: str(env, 'NODE_ENV') ?? 'development',
    requestDbBudgetMs: int(env, 'REQUEST_DB_BUDGET_MS', DEFAULT_REQUEST_DB_BUDGET_MS, 1, 600_000),
    trustProxy: (str(env, 'TRUST_PROXY') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    loadSample: (str(env, 'LOAD_SAMPLE') ?? 'true') !== 'false',
    ttl: {
      registration: int(env, 'REGISTRATION_TTL_SECONDS', 1800, 1),
      claimInterval: int(env, 'CLAIM_INTERVAL_SECONDS', 5, 0),
      accessToken: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 3600, 1),
      refreshToken: int(env, 'REFRESH_TOKEN_TTL_SECONDS', 2592000, 1),
      signinLink: int(env, 'SIGNIN_LINK_TTL_SECONDS', 900, 1),
    },
    oauth: {
      registrationsPerHour: int(env, 'OAUTH_REGISTRATIONS_PER_HOUR', 20, 1, 100_000),
      // At least an hour: registrations are counted from the clients registered in the last hour.
      unusedClientTtlSeconds: int(env, 'OAUTH_UNUSED_CLIENT_TTL_SECONDS', 86_400, 3600, 365 * 86_400),
    },
    signin: { perClientPerHour: int(env, 'SIGNIN_PER_CLIENT_PER_HOUR', 50, 1, 100_000) },
    jobs: { stopGraceSeconds: int(env, 'JOBS_STOP_GRACE_SECONDS', 20, 1, 3600) },
    drainSeconds: int(env, 'DRAIN_SECONDS', 0, 0, 600),
    ingest: ingestConfig(env),
    outbound: outboundConfig(env),
    webhooks: {
      retry: {
        limit: int(env, 'WEBHOOK_RETRY_LIMIT', 8, 0, 50),
        delaySeconds: int(env, 'WEBHOOK_RETRY_DELAY_SECONDS', 30, 1, 86_400),
        maxDelaySeconds: int(env, 'WEBHOOK_RETRY_MAX_DELAY_SECONDS', 6 * 3600, 1, 7 * 86_400),
      },
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      sweepSeconds: int(env, 'WEBHOOK_SWEEP_SECONDS', 15, 1, 3600),
    },
    alerts: {
      retry: { limit: int(env, 'ALERT_RETRY_LIMIT', 6, 0, 50), delaySeconds: int(env, 'ALERT_RETRY_DELAY_SECONDS', 60, 1, 86_400) },
      dailyCron: cronSetting(env, 'ALERT_DAILY_CRON', '0 12 * * *'),
      weeklyCron: cronSetting(env, 'ALERT_WEEKLY_CRON', '0 12 * * 1'),
    },
    bulk: {
      dir: resolve(str(env, 'BULK_DIR') ?? join(str(env, 'DATA_DIR') ?? './data', 'bulk')),
      // After the daily syncs of the default schedules (06:20 and 06:40 UTC).
      cron: (str(env, 'BULK_CRON') ?? '').toLowerCase() === 'off' ? null : cronSetting(env, 'BULK_CRON', '30 7 * * *'),
    },
  };
}

/** A cron expression setting; pg-boss parses it at start-up, here only its shape so a typo fails early. */
function cronSetting(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = str(env, name) ?? fallback;
  if (!/^\S+(\s+\S+){4,5}$/.test(raw)) throw new ConfigError(`${name} must be a cron expression like "${fallback}", got "${raw}"`);
  return raw;
}

function outboundConfig(env: NodeJS.ProcessEnv): Config['outbound'] {
  const raw = (str(env, 'OUTBOUND_ALLOW_LOOPBACK') ?? 'false').toLowerCase();
  if (!['true', 'false'].includes(raw)) throw new ConfigError(`OUTBOUND_ALLOW_LOOPBACK must be true or false, got "${raw}"`);
  if (raw === 'true' && (str(env, 'NODE_ENV') ?? 'development') === 'production') {
    throw new ConfigError('OUTBOUND_ALLOW_LOOPBACK=true is for development and tests; it is refused in production');
  }
  return { allowLoopback: raw === 'true' };
}
