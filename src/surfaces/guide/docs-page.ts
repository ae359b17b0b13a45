// /docs: the v1 and v2 OpenAPI descriptions rendered by Swagger UI (swagger-ui-dist, served from
// this service — no CDN), with how to get a key and curl examples written as plain HTML first, so
// the page is useful without JavaScript. The viewer's files are read once from the package and
// served under /docs/assets/ with a version ETag.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { Config } from '../../kernel/config.ts';
import { AppError } from '../../kernel/errors.ts';
import { contentTypes, sendOpen, sendPackageFile } from '../pages/public-answer.ts';
import { type Html, shell } from '../pages/public-shell.ts';

const require = createRequire(import.meta.url);
const distDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const distVersion = (JSON.parse(readFileSync(join(distDir, 'package.json'), 'utf8')) as { version: string }).version;

/** The viewer's files, by the name served under /docs/assets/. */
const assetFiles = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
} as const;

/** Starts the viewer on both descriptions (a file, not inline script: the page's CSP allows only 'self'). */
const initScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    urls: [{ url: '/api/openapi.json', name: 'v1' }, { url: '/api/v2/openapi.json', name: 'v2' }],
    'urls.primaryName': new URLSearchParams(location.search).get('version') === 'v2' ? 'v2' : 'v1',
    dom_id: '#viewer',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

/** Swagger UI sets inline styles and loads its own images as data: URIs; it needs no eval. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function curlExamples(baseUrl: string): { what: string; command: string }[] {
  const auth = '-H "Authorization: Bearer $COUNCIL_KEY"';
  return [
    { what: 'Search legislation', command: `curl ${auth} "${baseUrl}/api/v1/matters?q=parking&limit=5"` },
    { what: 'One matter with its sponsors, actions and roll calls', command: `curl ${auth} ${baseUrl}/api/v1/matters/SO2026-0025407` },
    { what: 'Which ward a point is in (City Hall)', command: `curl ${auth} "${baseUrl}/api/v1/wards?lat=41.88365&lon=-87.63197"` },
    { what: 'An alderperson’s votes, newest first', command: `curl ${auth} "${baseUrl}/api/v1/votes?person=PERSON_ID&limit=20"` },
    { what: 'Your usage and limits', command: `curl ${auth} ${baseUrl}/api/v1/me` },
    {
      what: 'An answer that cites its records (public.ai)',
      command: `curl ${auth} -H "Content-Type: application/json" -d '{"question":"Who represents the 42nd ward?"}' ${baseUrl}/api/v1/answers`,
    },
  ];
}

function docsBody(baseUrl: string): Html {
  return html`<p>Two versions of the JSON API serve the same public record: <strong>v1</strong> at <code>${baseUrl}/api/v1</code>
(<a href="/api/openapi.json">OpenAPI description</a>) and <strong>v2</strong> at <code>${baseUrl}/api/v2</code>, which adds personal follows and team data
(<a href="/api/v2/openapi.json">OpenAPI description</a>; every operation lists its scopes in <code>x-scopes</code>).
The same public record is a graph at <code>${baseUrl}/api/graphql</code>: open <a href="/api/graphql">the GraphQL explorer</a> (GraphiQL) in a browser, with a key or signed in.</p>
<p>The whole record at once, without a key: <a href="/bulk">bulk data</a> — one CSV file per table and one SQLite database with full-text search, from one nightly snapshot.</p>
<section aria-labelledby="key">
<h2 id="key">Getting a key</h2>
<ul>
<li>A person: <a href="/signin">sign in by email link</a> and make a key with the scopes you need on your account page.</li>
<li>An agent: register by email approval or use OAuth 2.1 — the steps and the scopes are in <a href="/auth.md">/auth.md</a>; every surface is listed in <a href="/llms.txt">/llms.txt</a>.</li>
<li>An operator: <code>npx council keys create --email you@example.org --name "my laptop" --scopes "public.read public.ai"</code>.</li>
</ul>
<p>Send the key as <code>Authorization: Bearer &lt;key&gt;</code> (v1 also takes <code>X-API-Key</code>), never in the URL.</p>
</section>
<section aria-labelledby="curl">
<h2 id="curl">Examples with curl</h2>
<p>With the key in <code>COUNCIL_KEY</code>:</p>
${curlExamples(baseUrl).map((e) => html`<h3>${e.what}</h3><pre><code>${e.command}</code></pre>`)}
</section>
<section aria-labelledby="reference">
<h2 id="reference">Reference</h2>
<noscript><p>The interactive reference needs JavaScript; the descriptions themselves are plain JSON: <a href="/api/openapi.json">v1</a>, <a href="/api/v2/openapi.json">v2</a>.</p></noscript>
<div id="viewer"></div>
</section>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>`;
}

export function docsPages(config: Config) {
  const files = new Map<string, { body: Buffer | string; type: string }>(
    Object.entries(assetFiles).map(([name, type]) => [name, { body: readFileSync(join(distDir, name)), type }]),
  );
  files.set('init.js', { body: initScript, type: 'text/javascript; charset=utf-8' });
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/docs', async (_request, reply) => {
      const page = await shell(
        {
          title: 'API docs',
          description: 'The Council Tracker JSON API, v1 and v2: how to get a key, curl examples and the full reference.',
          path: '/docs',
          baseUrl: config.baseUrl,
          head: html`<link rel="stylesheet" href="/docs/assets/swagger-ui.css">`,
        },
        docsBody(config.baseUrl),
      );
      return sendOpen(reply.header('Content-Security-Policy', DOCS_CSP), contentTypes.html, String(page));
    });
    app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
      const file = files.get(request.params.name);
      if (!file) throw new AppError('not_found', `No file ${request.params.name} in the API docs.`);
      // The files change only with the package version: a version ETag spares hashing 1.7 MB.
      return sendPackageFile(request, reply, { etag: `"swagger-ui-${distVersion}-${request.params.name}"`, type: file.type, body: () => file.body });
    });
  };
}
