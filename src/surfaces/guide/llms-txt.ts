// /llms.txt (the llms.txt convention, https://llmstxt.org): an H1, a one-paragraph summary in a
// blockquote, then sections of links an agent can follow. Built from the configuration, the
// limits the service enforces and the scope vocabulary, so it cannot drift from them.
import type { Config } from '../../kernel/config.ts';
import type { Limits } from '../../kernel/actor.ts';
import { defaultLimits } from '../../modules/accounts/index.ts';

const perLimits = (l: Limits) =>
  `${l.requestsPerDay.toLocaleString('en-US')} requests a day (reset at midnight UTC), ${l.requestsPerMinute} a minute, ${l.aiAnswersPerDay} AI answers a day`;

export function llmsTxt(config: Config): string {
  const b = config.baseUrl;
  const minutes = Math.round(config.ttl.registration / 60);
  return `# Council Tracker

> The public record of the Chicago City Council — legislation ("matters"), roll-call votes, meetings, alderpersons and their wards, campaign money and lobbying — for people, advocacy teams and AI agents: JSON APIs (v1, v2), GraphQL, an MCP server and an A2A agent, each needing a free credential, and open web pages, Markdown variants and Atom feeds that need none.

The data comes from the official public sources (the City Clerk's eLMS, Legistar, the City's lobbyist disclosures, Illinois campaign finance) with provenance on every record. Every answer of the AI surfaces cites the records it rests on.

## Getting a credential

- [How an agent gets a credential](${b}/auth.md): the whole recipe, step by step, with the exact requests and what each scope gives.
- Registration by email approval: \`POST ${b}/agent/auth\` with \`{ "email", "agent_name", "agent_uri" }\` → 202 with \`registration_id\`, \`claim_token\`, \`interval\` and \`expires_in\` (${minutes} minutes); the person approves by email; poll \`POST ${b}/agent/auth/claim\` every \`interval\` seconds for the \`api_key\` (scopes \`public.read public.ai\`).
- OAuth 2.1 with PKCE (S256): an unauthenticated call answers 401 with \`WWW-Authenticate: Bearer resource_metadata="…"\`; follow it to the [protected resource metadata](${b}/.well-known/oauth-protected-resource) and the [authorization server metadata](${b}/.well-known/oauth-authorization-server).
- API keys made by a person: [sign in by email link](${b}/signin), then make a key with chosen scopes on the account page.

Send the credential as \`Authorization: Bearer <credential>\` (v1 also takes \`X-API-Key\`). Never put it in a URL: that is refused with 400.

## Surfaces

- [JSON API v1](${b}/api/v1/matters): \`${b}/api/v1\`, public data with \`public.read\`, \`POST /api/v1/answers\` with \`public.ai\`. [OpenAPI description](${b}/api/openapi.json).
- [JSON API v2](${b}/api/v2/matters): \`${b}/api/v2\`, the same public data plus personal follows and team data with the scopes in each operation's \`x-scopes\`. [OpenAPI description](${b}/api/v2/openapi.json).
- [GraphQL](${b}/api/graphql): \`POST ${b}/api/graphql\` (GET for queries), public data with \`public.read\`, the field \`answer(question)\` with \`public.ai\`. Each top-level field counts against the limits as its REST call does; a document of more than ten top-level fields is refused. The standard introspection query (graphql-js's \`getIntrospectionQuery()\`) is answered; a browser opening the endpoint gets GraphiQL (paste a key, or sign in).
- [MCP server](${b}/mcp): Streamable HTTP at \`${b}/mcp\`; tools to search and read every public resource (\`public.read\`) and \`answer_question\` (\`public.ai\`); records as resources (\`council://matters/{record}\`, \`council://people/{id}\`, \`council://meetings/{id}\`, \`council://bodies/{id}\`: JSON and the Markdown page), argument completion, and prompts (brief me on a bill, how did my alderperson vote this year, the next council agenda).
- [A2A agent](${b}/.well-known/agent-card.json): JSON-RPC at \`${b}/a2a\` (A2A 1.0 and 0.3 method names), described by its agent card.
- [API docs](${b}/docs): both OpenAPI descriptions rendered, with curl examples.

## Limits

- A personal credential: ${perLimits(defaultLimits.account)}. A team credential shares the team's: ${perLimits(defaultLimits.team)}.
- Every authenticated answer counts once, refusals included; a 429 is not counted. Headers on every answer: \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`, \`RateLimit-Policy\`, \`RateLimit\`, \`X-AI-Calls-Limit\`, \`X-AI-Calls-Remaining\`; a 429 carries \`Retry-After\` (short: the minute; long: the day). When AI answers run out, data routes keep working.
- Lists take \`limit\` 1–200 (default 50) and an opaque \`cursor\` from \`meta.nextCursor\`. Writes take \`Idempotency-Key\`.

## Open pages, Markdown and feeds (no credential)

- [Wards](${b}/wards.md): the 50 wards and their alderpersons; [ward 42](${b}/wards/42.md). Which ward a point is in: \`GET ${b}/api/v1/wards?lat=41.8837&lon=-87.6319\`.
- Every record page has a Markdown variant at the same path plus \`.md\`, with absolute links: \`${b}/matters/{record}.md\`, \`${b}/people/{id}.md\`, \`${b}/meetings/{id}.md\`, \`${b}/bodies/{id}.md\`.
- [New legislation (Atom)](${b}/feeds/matters.atom), [meetings (Atom)](${b}/feeds/meetings.atom); an alderperson's votes \`${b}/feeds/people/{id}/votes.atom\`; a committee's actions \`${b}/feeds/bodies/{id}/actions.atom\`; any search \`${b}/feeds/search.atom?q={words}\`.
- [Bulk data](${b}/bulk) ([Markdown](${b}/bulk.md)): the whole public record as one gzipped CSV file per table and one SQLite database with full-text search, from one nightly snapshot; the manifest \`${b}/bulk/index.json\` lists each file's URL, size, row count and SHA-256 (404 until the first export); files answer ETag and range requests.
- [Sitemap](${b}/sitemap.xml) of every page.
`;
}
