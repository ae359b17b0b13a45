// One set of security headers for every HTML answer, whichever surface made it (open pages, the
// website, the dashboard, the consent page, the API docs, error and not-found pages): set once, as
// each answer leaves, so no page can be sent without them.
//   - Referrer-Policy: no-referrer — no page's URL (a sign-in or approval code, a private path)
//     leaves the site in a Referer; the site's own form posts then carry `Origin: null`, which
//     surfaces/web/security.ts reads together with Sec-Fetch-Site.
//   - X-Content-Type-Options: nosniff (Fetch §3.5), X-Frame-Options: DENY (RFC 7034) beside CSP's
//     frame-ancestors 'none' (CSP 3 §6.4.2) for browsers that know only the older header.
//   - Content-Security-Policy: the page's own when it set one, else the strictest (no script).
//   - Strict-Transport-Security when BASE_URL is https (RFC 6797 §7.1; a UA ignores it over http,
//     §8.1), on every answer: browsers then never try the http origin again.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../kernel/config.ts';

/** The CSP of a page that names none: no script, inline styles only, no framing, forms to this site. */
export const STRICT_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A year, as RFC 6797 §11.2 suggests for a site that is https only. */
const HSTS = 'max-age=31536000';

export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export function useSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'baseUrl'>): void {
  const https = new URL(config.baseUrl).protocol === 'https:';
  // A callback hook, not an async one: every answer of every surface passes it, and a promise
  // settled per answer cost about a microsecond (issue 23).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (https) reply.header('Strict-Transport-Security', HSTS);
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.headers(pageSecurityHeaders);
      if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', STRICT_PAGE_CSP);
    }
    done(null, payload);
  });
}
