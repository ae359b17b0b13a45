// The one error type modules throw, and the catalogue that maps each code to its HTTP status
// (decisions.md, "Errors"). Surfaces render it; nothing else writes an error body.
import type { LimitState } from './limit-state.ts';

export const errorCatalogue = {
  invalid_request: 400,
  unauthorized: 401,
  scope_missing: 403,
  team_only: 403,
  personal_only: 403,
  forbidden: 403,
  feature_required: 403,
  ip_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  daily_limit: 429,
  ai_daily_limit: 429,
  headers_too_large: 431,
  internal: 500,
  /** An upstream the answer depends on (the language model) timed out or failed. */
  upstream_unavailable: 502,
  unavailable: 503,
  /** The request used up its database time (REQUEST_DB_BUDGET_MS, kernel/db-budget.ts); Retry-After says when to try again. */
  over_budget: 503,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers the error implies (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;
  /**
   * The caller's limits once this refusal was counted (kernel/perform.ts): an authenticated
   * answer carries the limit headers whatever its status.
   */
  limits?: LimitState;
  /**
   * The error's code in a protocol's own vocabulary where that protocol names one (OAuth: RFC 6749
   * §5.2, RFC 7591 §3.2.2, RFC 8707 §2); that surface's renderer sends it instead of `code`.
   */
  readonly protocolCode: string | undefined;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}, protocolCode?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code];
    this.headers = headers;
    this.protocolCode = protocolCode;
  }
}

/** The refusal of a request whose database time is used up (kernel/db-budget.ts). */
export function overBudget(limitMs?: number): AppError {
  const within = limitMs === undefined ? '' : ` (${limitMs} ms)`;
  return new AppError(
    'over_budget',
    `The request used up its database time${within} and was stopped; try again shortly, or ask for less at once (fewer fields, a smaller page).`,
    { 'Retry-After': '1' },
  );
}

// SQLSTATE classes that mean "the database is not reachable or not usable right now".
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const unavailableNodeCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** 503 while the database cannot be reached: a client retries after Retry-After (RFC 9110 §10.2.3). */
function databaseUnavailable(): AppError {
  return new AppError('unavailable', 'The database cannot be reached; try again shortly.', { 'Retry-After': '5' });
}

/** Turns anything thrown into an AppError; unknown errors become `internal` with the message hidden. */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown; validation?: unknown };
  if (typeof e?.code === 'string' && (unavailableStates.has(e.code) || unavailableNodeCodes.has(e.code))) {
    return databaseUnavailable();
  }
  // 57014 query_canceled: a request's statement ran past its statement_timeout (kernel/db.ts).
  if (e?.code === '57014') return overBudget();
  if (typeof e?.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|PGlite is closed/i.test(e.message)) {
    return databaseUnavailable();
  }
  // SQLSTATE class 22 (data exception): a value from the request the database refuses — a NUL
  // character, a number out of range, an impossible date. The input is at fault, not the service.
  if (typeof e?.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) {
    return new AppError('invalid_request', 'A value in the request cannot be used here (a number out of range, an impossible date or a NUL character).');
  }
  // Fastify's own client errors (bad JSON, body too large, wrong content type, schema validation).
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const message = typeof e.message === 'string' ? e.message : 'Bad request';
    if (e.statusCode === 413) return new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
    if (e.statusCode === 415) {
      return new AppError(
        'unsupported_media_type',
        'This Content-Type is not accepted here: send the body as JSON with the header "Content-Type: application/json".',
      );
    }
    if (e.code === 'FST_ERR_BAD_URL') return new AppError('invalid_request', 'The URL is not valid: a percent sign must start a valid escape such as %20.');
    if (e.code === 'FST_ERR_MAX_PARAM_LENGTH' || e.statusCode === 414)
      return new AppError('uri_too_long', 'A part of the path is longer than any identifier the service uses (500 characters).');
    if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
      return new AppError('invalid_request', 'The body is empty although Content-Type says JSON: send a JSON body, or no Content-Type.');
    if (e.statusCode === 431) return new AppError('headers_too_large', 'The request headers are too large.');
    if (e.statusCode === 408) return new AppError('request_timeout', 'The request took too long to arrive.');
    if (e.statusCode === 404) return new AppError('not_found', message);
    if (e.statusCode === 405) return new AppError('method_not_allowed', message);
    return new AppError('invalid_request', message);
  }
  return new AppError('internal', 'An internal error occurred.');
}
