// One env schema → typed Config (decisions.md, "Running it"). Read once at start-up.
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  ai: { baseUrl: string | null; apiKey: string | null; model: string | null };
  nodeEnv: string;
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
  /** The job queue (kernel/jobs.ts). */
  jobs: { stopGraceSeconds: number };
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
    ai: { baseUrl: url(env, 'AI_BASE_URL', ['http:', 'https:']), apiKey: str(env, 'AI_API_KEY'), model: str(env, 'AI_MODEL') },
    nodeEnv: str(env, 'NODE_ENV') ?? 'development',
    trustProxy: (str(env, 'TRUST_PROXY') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    loadSample: (str(env, 'LOAD_SAMPLE') ?? 'true') !== 'false',
    ttl: {
      registration: int(env, 'REGISTRATION_TTL_SECONDS', 1800, 1),
      claimInterval: int(env, 'CLAIM_INTERVAL_SECONDS', 5, 0),
      accessToken: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 3600, 1),
      refreshToken: int(env, 'REFRESH_TOKEN_TTL_SECONDS', 2592000, 1),
      signinLink: int(env, 'SIGNIN_LINK_TTL_SECONDS', 900, 1),
    },
    jobs: { stopGraceSeconds: int(env, 'JOBS_STOP_GRACE_SECONDS', 20, 1, 3600) },
  };
}
