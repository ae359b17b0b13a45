// /auth.md: how an agent gets a credential, step by step — registration by email approval, OAuth
// discovery from a 401, keys made by a person — and what each scope gives. The scope table is
// generated from the scope vocabulary (kernel/access.ts) and the operation catalogue, and the
// challenge shown is the one the service sends (credentials/challenge.ts), so none can drift.
import type { Operation } from '../../kernel/catalogue.ts';
import type { Config } from '../../kernel/config.ts';
import { allScopes, scopeCatalogue } from '../../kernel/access.ts';
import { DEFAULT_SCOPE, resourceMetadataUrl } from '../../modules/credentials/challenge.ts';

const kindWords = { any: 'personal or team', personal: 'personal', team: 'team' } as const;

/** One row per scope: its key kind, what it gives, and the operations that need it. */
export function scopeTable(operations: readonly Operation[]): string {
  const rows = allScopes.map((scope) => {
    const { kind, description } = scopeCatalogue[scope];
    const ops = operations.filter((op) => op.access.scopes.includes(scope)).map((op) => `\`${op.id}\``);
    return `| \`${scope}\` | ${kindWords[kind]} | ${description} | ${ops.length ? ops.join(', ') : '—'} |`;
  });
  return ['| scope | key kind | gives | operations |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export function authMd(config: Config, operations: readonly Operation[]): string {
  const b = config.baseUrl;
  const minutes = Math.round(config.ttl.registration / 60);
  const hours = Math.round(config.ttl.accessToken / 3600);
  const days = Math.round(config.ttl.refreshToken / 86400);
  const unusedHours = Math.round(config.oauth.unusedClientTtlSeconds / 3600);
  return `# Getting a credential for Council Tracker

Every machine surface (v1 \`${b}/api/v1\`, v2 \`${b}/api/v2\`, GraphQL \`${b}/api/graphql\`, MCP \`${b}/mcp\`, A2A \`${b}/a2a\`) needs a credential tied to a person's free account. There are three ways to get one. Send it as \`Authorization: Bearer <credential>\`; never in a URL.

## 1. Registration by email approval (an API key)

For an agent acting for one person who can read email. The key is personal and holds \`${DEFAULT_SCOPE}\`, never more.

**Step 1 — register.**

\`\`\`http
POST ${b}/agent/auth
Content-Type: application/json

{"email": "person@example.org", "agent_name": "Ward research assistant", "agent_uri": "https://agent.example.org"}
\`\`\`

\`agent_uri\` is optional (an https URL). The answer is \`202\`:

\`\`\`json
{"registration_id": "…", "claim_token": "…", "claim_uri": "…", "interval": ${config.ttl.claimInterval}, "expires_in": ${config.ttl.registration}}
\`\`\`

**Step 2 — the person decides.** An email goes to the address with a link to a page naming your agent and what it will get; the person presses Approve or Deny there (opening the link decides nothing). Tell the person to expect it. The registration lasts ${minutes} minutes.

**Step 3 — claim, every \`interval\` seconds.**

\`\`\`http
POST ${b}/agent/auth/claim
Content-Type: application/json

{"registration_id": "…", "claim_token": "…"}
\`\`\`

- \`400 authorization_pending\`: not decided yet; wait \`interval\` seconds and ask again.
- \`400 slow_down\`: you asked sooner than \`interval\`; wait longer.
- \`400 access_denied\`: the person said no. \`400 expired_token\`: ${minutes} minutes passed; start again.
- \`200 {"api_key": "ctk_…"}\`: approved. The key is shown once: keep it.

**Revoking it:** \`POST ${b}/agent/auth/revoke\` with the key as \`Authorization: Bearer ctk_…\`.

## 2. OAuth 2.1 with PKCE, discovered from a 401

For apps acting for any person who signs in. Start by calling a surface without a credential:

\`\`\`http
GET ${b}/api/v1/matters

HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer resource_metadata="${resourceMetadataUrl(b, 'api')}", scope="${DEFAULT_SCOPE}"
\`\`\`

(\`/mcp\` and \`/a2a\` answer the same with their own metadata: \`${resourceMetadataUrl(b, 'mcp')}\`, \`${resourceMetadataUrl(b, 'a2a')}\`.)

1. Read the protected resource metadata (RFC 9728) at that URL ([for the API](${resourceMetadataUrl(b, 'api')}), [for MCP](${resourceMetadataUrl(b, 'mcp')}), [for A2A](${resourceMetadataUrl(b, 'a2a')})): \`resource\` is the surface, \`authorization_servers\` names \`${b}\`, \`scopes_supported\` lists the scopes below.
2. Read the [authorization server metadata](${b}/.well-known/oauth-authorization-server) (RFC 8414): the authorize, token, registration and revocation endpoints, PKCE \`S256\`, and under \`agent_auth\` the registration flow of section 1.
3. Be a public client: register with \`POST ${b}/oauth/register\` (RFC 7591; \`token_endpoint_auth_method: "none"\`, your \`redirect_uris\`), or use an https URL of a client ID metadata document as \`client_id\`. Register once and keep the \`client_id\`: an address may register ${config.oauth.registrationsPerHour} client${config.oauth.registrationsPerHour === 1 ? '' : 's'} an hour (then 429 \`rate_limited\` with \`Retry-After\`), and a client with no grant ${unusedHours} hour${unusedHours === 1 ? '' : 's'} after registering is deleted (then \`invalid_client\`: register again).
4. Send the person to \`${b}/oauth/authorize?response_type=code&client_id=…&redirect_uri=…&code_challenge=…&code_challenge_method=S256&scope=${encodeURIComponent(DEFAULT_SCOPE)}&state=…\` (add \`resource=${b}/mcp\`, \`/a2a\` or \`/api\` to bind the token to one surface). They sign in by email link and consent; for team scopes they choose Personal or one of their teams.
5. Exchange the code at \`POST ${b}/oauth/token\` (\`grant_type=authorization_code\`, \`code\`, \`redirect_uri\`, \`client_id\`, \`code_verifier\`). The answer holds \`access_token\` (\`cto_…\`, ${hours} hour${hours === 1 ? '' : 's'}), \`refresh_token\` (\`ctr_…\`, ${days} days, rotates on every use), the granted \`scope\` and, for a team, \`org_id\`.
6. Refresh with \`grant_type=refresh_token\` (a narrower \`scope\` may be asked, never a wider one). Revoke at \`POST ${b}/oauth/revoke\` (RFC 7009).

Omitting \`scope\`, or sending \`api\`, means \`${DEFAULT_SCOPE}\`. The app never gets more than the person's account can grant at the time of each request.

## 3. A key made by a person

A person [signs in](${b}/signin) by email link and makes a key with chosen scopes on the account page; team owners and admins make team keys under the team's Settings → API keys. Scopes of a key cannot be changed later; make a new key. A credential holding \`me.keys.write\` (or, for a team, \`team.keys.write\`, which only owners and admins may hold) makes keys through v2 (\`POST ${b}/api/v2/me/keys\`, \`POST ${b}/api/v2/team/keys\`), each holding only scopes the calling credential holds itself: a key never makes a key with more power than its own.

## Scopes and what each gives

Personal keys hold only personal and "personal or team" scopes; team keys only team and "personal or team" ones. A key never does more than its creator's account may do at the moment of the request. Keys issued by registration hold \`public.read public.ai\` only: never the settings scopes (\`me.keys.*\`, \`me.webhooks.*\`, \`team.keys.*\`, \`team.members.*\`); writes of team follows, positions, members and keys are for owners and admins.

${scopeTable(operations)}

## Limits

Every credential shares its account's limits (a team credential the team's). Each answer carries \`RateLimit-*\` and \`X-AI-Calls-*\` headers; a 429 carries \`Retry-After\`. See [${b}/llms.txt](${b}/llms.txt) for the figures and every surface, and [${b}/docs](${b}/docs) for the API descriptions.
`;
}
