// MCP resources for the public record (MCP 2025-11-25 server/resources) and completion of their
// template arguments (server/utilities/completion). A record is a resource template:
// `council://matters/{record}`, `council://people/{id}`, `council://meetings/{id}`,
// `council://bodies/{id}`; resources/list lists the bodies (the council and its committees).
// Every read binds a catalogue operation through the same admission as a tool call (./server.ts):
// resources/read performs the record's read operation (its JSON) beside the website's Markdown
// page of the record, built from the same view model as `/matters/{record}.md`; completion
// performs `search.read`. Nothing is read that the caller's credential may not read.
import { ProtocolError, type ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { pageDefs } from '../pages/index.ts';
import { readerFor } from '../pages/page-route.ts';
import { renderMarkdown } from '../pages/render-markdown.ts';

export interface TemplateDef {
  /** The template (RFC 6570 level 1: one simple variable). */
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  /** The template's variable, and the operation input field it fills. */
  param: string;
  /** The operation that reads the record (its JSON). */
  operation: OperationId;
  /** The website page of the record (its Markdown variant), by its Fastify path. */
  page: string;
  /** The search type whose results complete the variable. */
  searchType: 'matter' | 'person' | 'meeting' | 'body';
}

export const TEMPLATES: readonly TemplateDef[] = [
  {
    uriTemplate: 'council://matters/{record}',
    name: 'matter',
    title: 'A matter (legislation)',
    description: 'A matter by record number (any letter case): status, sponsors, actions, roll calls; as JSON and as its Markdown page.',
    param: 'record',
    operation: 'matters.read',
    page: '/matters/:record',
    searchType: 'matter',
  },
  {
    uriTemplate: 'council://people/{id}',
    name: 'person',
    title: 'An alderperson, official or lobbyist',
    description: 'A public person by id: ward, terms, committees; as JSON and as their Markdown page (voting record, sponsored legislation, money).',
    param: 'id',
    operation: 'people.public.read',
    page: '/people/:id',
    searchType: 'person',
  },
  {
    uriTemplate: 'council://meetings/{id}',
    name: 'meeting',
    title: 'A meeting',
    description: 'A meeting of the council or a committee by id: agenda, attendance, roll calls; as JSON and as its Markdown page.',
    param: 'id',
    operation: 'meetings.read',
    page: '/meetings/:id',
    searchType: 'meeting',
  },
  {
    uriTemplate: 'council://bodies/{id}',
    name: 'body',
    title: 'The City Council or a committee',
    description: 'A body by id with its members; as JSON and as its Markdown page.',
    param: 'id',
    operation: 'bodies.read',
    page: '/bodies/:id',
    searchType: 'body',
  },
];

/** server/resources §Error Handling: a resource that does not exist is -32002. */
export const resourceNotFound = (uri: string) => new ProtocolError(-32002 as ProtocolErrorCode, `Resource not found: ${uri}`);

/** The template a URI is an instance of, and its variable's value; null when it is none of ours. */
export function matchUri(uri: string): { def: TemplateDef; value: string } | null {
  for (const def of TEMPLATES) {
    const prefix = def.uriTemplate.slice(0, def.uriTemplate.indexOf('{'));
    if (!uri.startsWith(prefix)) continue;
    const raw = uri.slice(prefix.length);
    if (!raw || raw.includes('/') || raw.includes('?') || raw.includes('#')) return null;
    try {
      return { def, value: decodeURIComponent(raw) };
    } catch {
      return null;
    }
  }
  return null;
}

export const uriOf = (def: TemplateDef, value: string) => `${def.uriTemplate.slice(0, def.uriTemplate.indexOf('{'))}${encodeURIComponent(value)}`;

/** The value a search result gives a template's variable: a matter's record number, else its id. */
function completionValue(hit: { id: string; path: string }): string {
  return decodeURIComponent(hit.path.slice(hit.path.lastIndexOf('/') + 1)) || hit.id;
}

export interface Resources {
  /** resources/read: the record's JSON (its operation, admitted) and its Markdown page. */
  read(admission: Admission, def: TemplateDef, value: string, uri: string): Promise<{ contents: Record<string, unknown>[] }>;
  /** Values completing a variable from what was typed: the search operation's results, admitted. */
  complete(admission: Admission, searchType: TemplateDef['searchType'], typed: string): Promise<string[]>;
  /** The body resources (resources/list), from `bodies.list`, admitted. */
  list(admission: Admission): Promise<{ resources: Record<string, unknown>[] }>;
}

/** At most this many completion values (server/utilities/completion: at most 100 per response). */
const MAX_VALUES = 20;

export function createResources(ctx: AppContext): Resources {
  const base = ctx.config.baseUrl.replace(/\/$/, '');
  const pages = new Map(pageDefs.map((d) => [d.path, d]));
  // The Markdown page is open to everyone: built as the website builds it, as the visitor.
  const read = readerFor(ctx);
  return {
    async read(admission, def, value, uri) {
      let record: unknown;
      try {
        record = await ctx.performer.execute(admission, { [def.param]: value });
      } catch (err) {
        if (err instanceof AppError && err.code === 'not_found') throw resourceNotFound(uri);
        throw err;
      }
      const page = pages.get(def.page)!;
      const markdown = renderMarkdown(await page.build(read, { [def.param]: value }, {}), base);
      const path = def.page.replace(/:\w+$/, encodeURIComponent(value));
      return {
        contents: [
          { uri, mimeType: 'application/json', text: JSON.stringify(record) },
          // The same record's public page, as Markdown, at its own address.
          { uri: `${base}${path}.md`, mimeType: 'text/markdown', text: markdown },
        ],
      };
    },
    async complete(admission, searchType, typed) {
      const q = typed.trim();
      if (!q) return [];
      const page = (await ctx.performer.execute(admission, { q: q.slice(0, 200), type: searchType, limit: MAX_VALUES })) as {
        data: { id: string; path: string }[];
      };
      return [...new Set(page.data.map(completionValue))];
    },
    async list(admission) {
      const page = (await ctx.performer.execute(admission, { limit: 200 })) as { data: { id: string; name: string; kind: string }[] };
      const def = TEMPLATES.find((t) => t.name === 'body')!;
      return {
        resources: page.data.map((b) => ({
          uri: uriOf(def, b.id),
          name: b.name,
          title: b.name,
          description: `${b.kind === 'council' ? 'The City Council' : 'A committee of the council'}: members, as JSON and as its Markdown page.`,
          mimeType: 'application/json',
        })),
      };
    },
  };
}
