// The picker's routes, open like the public pages: /assets/picker.js (the script), GET
// /pick/search (its matches as JSON, the public search operation performed as the visitor) and
// GET /pick, the page a person without JavaScript searches on and chooses from; each result links
// back to the form's page with the choice filled in. The page returned to must be a path on this
// site (never another origin: `//host` and `/\host` are refused).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { page, sendPage } from '../web/layout.ts';
import { pickNoun, type PickType, pickTypes, type Search, searchPicks } from './picker.ts';
import { performAsVisitor } from './public-answer.ts';

const pickerJs = readFileSync(new URL('./assets/picker.js', import.meta.url), 'utf8');

function typesOf(raw: unknown): PickType[] {
  const list = typeof raw === 'string' && raw ? raw.split(',') : [...pickTypes];
  if (list.length > pickTypes.length || !list.every((t) => (pickTypes as readonly string[]).includes(t))) {
    throw new AppError('invalid_request', `types must be a comma-separated list of ${pickTypes.join(', ')}.`);
  }
  return list as PickType[];
}

function text(raw: unknown, what: string, max = 200): string {
  if (raw === undefined) return '';
  if (typeof raw !== 'string' || raw.length > max) throw new AppError('invalid_request', `${what} must be text of at most ${max} characters.`);
  return raw.trim();
}

/** A same-site path to return to, or null. */
export function sameSitePath(raw: string): string | null {
  return /^\/(?![/\\])[^\s]*$/.test(raw) && raw.length <= 500 ? raw : null;
}

/** `back` with `name` (and its text) set in the query, keeping what it already asked. */
function returnUrl(back: string, name: string, value: string, label: string): string {
  const url = new URL(back, 'http://site.invalid');
  url.searchParams.set(name, value);
  url.searchParams.set(`${name}-text`, label);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function pickerRoutes(ctx: AppContext) {
  const search: Search = (input) => performAsVisitor(ctx, 'search.read', input);
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/assets/picker.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').send(pickerJs),
    );

    app.get('/pick/search', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const types = typesOf(query.types);
      const q = text(query.q, 'q');
      const data = q ? await searchPicks(search, types, q) : [];
      return reply.header('Cache-Control', 'public, max-age=60').header('X-Content-Type-Options', 'nosniff').send({ data });
    });

    app.get('/pick', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const types = typesOf(query.types);
      const q = text(query.q, 'q');
      const field = text(query.field, 'field', 60);
      if (field && !/^[A-Za-z][\w-]*$/.test(field)) throw new AppError('invalid_request', 'field must be a form field name.');
      const back = sameSitePath(text(query.return, 'return', 500));
      const found = q ? await searchPicks(search, types, q, 25) : [];
      const choose = (r: (typeof found)[number]) =>
        back && field ? html`<a href="${returnUrl(back, field, r.value, r.label)}">Choose ${r.label}</a>` : html`${r.label}`;
      const body = html`<form method="get" action="/pick" role="search">
<input type="hidden" name="types" value="${types.join(',')}">${field ? html`<input type="hidden" name="field" value="${field}">` : ''}${back ? html`<input type="hidden" name="return" value="${back}">` : ''}
<label>Record number, title or name <input name="q" value="${q}" maxlength="200" required></label><button type="submit">Search</button></form>
${q ? (found.length ? html`<ul class="pick-results">${found.map((r) => html`<li>${choose(r)}${r.detail ? html` <span class="muted">(${r.detail})</span>` : ''}</li>`)}</ul>` : html`<p>Nothing matches.</p>`) : ''}
${back ? html`<p><a href="${back}">Back without choosing</a></p>` : ''}`;
      return sendPage(reply, 200, page(`Choose ${pickNoun(types)}`, null, body));
    });
  };
}
