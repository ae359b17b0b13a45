// GraphiQL for a person: a browser opening /api/graphql (GET, no `query`, HTML preferred to JSON)
// gets GraphiQL 5 as the `ruru` package bundles it (React, Monaco and GraphiQL prebuilt as ES
// modules), its files served from the package under /graphiql/assets/ — no CDN; the page's CSP
// allows scripts from this service and the page's own nonce only. The page is open: the schema and
// the data still need a credential, as every GraphQL request does. A person signed in on the site
// is sent with their session's CSRF token in the request headers (the GraphQL surface accepts a
// session only with it: ./index.ts); anyone else pastes a key into the page's key field (kept in
// this tab's sessionStorage) or into GraphiQL's Headers tab.
import { randomBytes } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type RuruClientConfig, ruruHTML } from 'ruru/server';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { CSRF_HEADER, SESSION_COOKIE } from '../../modules/sessions/index.ts';
import { sendPackageFile } from '../pages/public-answer.ts';

export const EXPLORER_ASSETS = '/graphiql/assets/';
/** The endpoint GraphiQL calls (index.ts's GRAPHQL_PATH; not imported, which would be circular). */
const GRAPHQL_ENDPOINT = '/api/graphql';

const require = createRequire(import.meta.url);
// The package exports no package.json; its entry is dist/index.js, its files are in static/.
const packageDir = dirname(dirname(require.resolve('ruru')));
const staticDir = join(packageDir, 'static');
const version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;

const types: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  ttf: 'font/ttf',
  txt: 'text/plain; charset=utf-8',
};
/** The bundle's files by name (source maps left out), read once from the package's folder. */
const assets = new Map(
  readdirSync(staticDir)
    .filter((name) => !name.endsWith('.map') && types[name.slice(name.lastIndexOf('.') + 1)])
    .map((name) => [name, types[name.slice(name.lastIndexOf('.') + 1)]!]),
);

/**
 * GraphiQL sets inline styles and loads Monaco's workers from this service; it needs no eval. The
 * page's own scripts (the configuration and the key field) run by nonce.
 */
const csp = (nonce: string) =>
  `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** Whether the request is a browser opening the endpoint (RFC 9110 §12.5.1: HTML preferred, or JSON not named). */
export function wantsExplorer(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const query = request.query as Record<string, unknown> | undefined;
  if (query && query.query !== undefined) return false;
  const accept = String(request.headers.accept ?? '');
  return /\btext\/html\b/.test(accept) && !/application\/(graphql-response\+)?json/.test(accept.split(',')[0] ?? '');
}

const KEY_STORE = 'council-tracker:graphql-key';

const bar = (signedIn: boolean) => `<header id="ct-bar">
<a href="/">Council Tracker</a> · <strong>GraphQL explorer</strong> ·
${
  signedIn
    ? 'Signed in: your requests use your account’s limits.'
    : `<form id="ct-key"><label for="ct-key-input">API key</label> <input id="ct-key-input" name="key" type="password" autocomplete="off" placeholder="ctk_…" size="28"> <button type="submit">Use key</button></form> or <a href="/signin">sign in</a>; a key is made on your <a href="/account">account page</a>.`
}
· <a href="/docs">API docs</a> · <a href="/llms.txt">llms.txt</a>
</header>`;

const style = `<style>
#ct-bar { font: 14px system-ui, sans-serif; padding: 6px 12px; border-bottom: 1px solid #ccc; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#ct-bar form { display: inline-flex; gap: 4px; align-items: center; }
#ruru-root { height: calc(100vh - 40px) !important; }
</style>`;

/**
 * Runs before GraphiQL starts: every request to the endpoint carries the person's credential (the
 * session's CSRF token, or the key pasted in this tab) unless GraphiQL's Headers tab sets one. The
 * credential stays out of the Headers editor, so it is not shown on screen.
 */
const credentialScript = (csrf: string | null) => `<script>
(function () {
  var key = sessionStorage.getItem(${JSON.stringify(KEY_STORE)});
  var extra = ${csrf ? `{ ${JSON.stringify(CSRF_HEADER)}: ${JSON.stringify(csrf)} }` : `key ? { authorization: 'Bearer ' + key } : null`};
  if (!extra) return;
  var endpoint = new URL(${JSON.stringify(GRAPHQL_ENDPOINT)}, location.href).href;
  var fetch = window.fetch;
  window.fetch = function (input, init) {
    var url = input instanceof Request ? input.url : new URL(String(input), location.href).href;
    if (url.split('?')[0] !== endpoint) return fetch.call(this, input, init);
    var headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
    for (var name in extra) if (!headers.has(name) && !headers.has('authorization')) headers.set(name, extra[name]);
    return fetch.call(this, input, Object.assign({}, init, { headers: headers }));
  };
})();
</script>`;

const keyScript = `<script>
(function () {
  var form = document.getElementById('ct-key');
  if (!form) return;
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = form.key.value.trim();
    if (key) sessionStorage.setItem(${JSON.stringify(KEY_STORE)}, key);
    else sessionStorage.removeItem(${JSON.stringify(KEY_STORE)});
    location.reload();
  });
})();
</script>`;

export function explorerPage(csrf: string | null, nonce: string): string {
  const page = ruruHTML({
    endpoint: GRAPHQL_ENDPOINT,
    staticPath: EXPLORER_ASSETS,
    // ruru's declared type makes every GraphiQL prop required; these few are all it needs.
    clientConfig: {
      inputValueDeprecation: true,
      schemaDescription: true,
      defaultQuery:
        '# The public record as a graph: the Docs button lists every field.\n{\n  matters(limit: 5) {\n    data { recordNumber title status }\n    meta { nextCursor }\n  }\n}\n',
    } as Partial<RuruClientConfig> as RuruClientConfig,
    htmlParts: {
      titleTag: '<title>GraphQL explorer · Council Tracker</title>',
      styleTags: (original) => `${original}\n${style}`,
      configScript: (original) => `${original}\n${credentialScript(csrf)}`,
      bodyContent: (original) => `${bar(csrf !== null)}\n${original}`,
      bodyScripts: (original) => `${original}\n${keyScript}`,
    },
  });
  // Every inline script of the page runs by the nonce of this answer.
  return page.replaceAll('<script', `<script nonce="${nonce}"`);
}

/** The page at /api/graphql for a browser; runs before the surface's authentication. */
export async function sendExplorer(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const signedIn = await ctx.services.credentials.verifySession(request.cookies[SESSION_COOKIE]);
  const nonce = randomBytes(16).toString('base64');
  return (
    reply
      .status(200)
      .header('Content-Security-Policy', csp(nonce))
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Vary', 'Accept')
      // Made for this person (their CSRF token) and with a nonce of its own: never stored.
      .header('Cache-Control', 'private, no-store')
      .type('text/html; charset=utf-8')
      .send(explorerPage(signedIn?.csrfToken ?? null, nonce))
  );
}

/** GraphiQL's files, open, from the package (a version ETag: they change only with it). */
export function explorerAssets() {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get<{ Params: { name: string } }>(`${EXPLORER_ASSETS}:name`, async (request, reply) => {
      const type = assets.get(request.params.name);
      if (!type) throw new AppError('not_found', `No file ${request.params.name} in the GraphQL explorer.`);
      const name = request.params.name;
      return sendPackageFile(request, reply, { etag: `"ruru-${version}-${name}"`, type, body: () => createReadStream(join(staticDir, name)) });
    });
  };
}
