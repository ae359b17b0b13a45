-- The OAuth 2.1 authorization server (src/modules/oauth): clients, authorization codes, grants
-- (one person's consent to one client, personal or for one team) and the tokens a grant issues.
-- Codes and tokens are stored only as SHA-256 of their values, like API keys.

create table oauth_clients (
  -- 'ctc_…' for a client registered dynamically (RFC 7591), or the https URL of its client ID
  -- metadata document.
  id             text primary key,
  kind           text not null check (kind in ('registered', 'metadata_document')),
  client_name    text not null,
  client_uri     text,
  redirect_uris  text[] not null,
  created_at     timestamptz not null default now(),
  -- Metadata documents: when the document was fetched, and until when its cache headers let it be used.
  fetched_at     timestamptz,
  fresh_until    timestamptz
);

create table oauth_grants (
  id              text primary key,
  client_id       text not null references oauth_clients (id) on delete cascade,
  account_id      text not null references accounts (id) on delete cascade,
  team_id         text references teams (id) on delete cascade,
  scopes          text[] not null,
  -- The surface the grant's tokens are bound to (RFC 8707): 'api', 'mcp', 'a2a', or null for all three.
  resource        text check (resource in ('api', 'mcp', 'a2a')),
  created_at      timestamptz not null default now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz,
  revoked_reason  text
);
create index oauth_grants_account on oauth_grants (account_id, created_at desc);
create index oauth_grants_team_account on oauth_grants (team_id, account_id) where revoked_at is null;

create table oauth_codes (
  hash            bytea primary key,
  client_id       text not null references oauth_clients (id) on delete cascade,
  account_id      text not null references accounts (id) on delete cascade,
  team_id         text references teams (id) on delete cascade,
  scopes          text[] not null,
  redirect_uri    text not null,
  code_challenge  text not null,
  resource        text check (resource in ('api', 'mcp', 'a2a')),
  expires_at      timestamptz not null,
  used_at         timestamptz,
  -- The grant its first redemption made: a second redemption revokes it (RFC 6749 §4.1.2).
  grant_id        text references oauth_grants (id) on delete set null
);

create table oauth_tokens (
  hash        bytea primary key,
  grant_id    text not null references oauth_grants (id) on delete cascade,
  kind        text not null check (kind in ('access', 'refresh')),
  scopes      text[] not null,
  -- Access tokens: the surface this token is bound to (RFC 8707; the grant's, or narrowed at the
  -- token request); null: good on all three.
  resource    text check (resource in ('api', 'mcp', 'a2a')),
  expires_at  timestamptz not null,
  created_at  timestamptz not null default now(),
  -- Refresh tokens: when it was rotated (presenting it again revokes the grant, RFC 9700 §4.14.2).
  used_at     timestamptz,
  revoked_at  timestamptz
);
create index oauth_tokens_grant on oauth_tokens (grant_id);

-- What an access token may do changes with its grant and its own revocation: the same channel as
-- keys (migration 0070), so every instance drops what it kept of the token.
create trigger oauth_grants_power_changed
  after update of account_id, team_id, scopes, resource, revoked_at or delete
  on oauth_grants for each statement execute function notify_cache_channel('council_power');
create trigger oauth_tokens_power_changed
  after update of revoked_at, expires_at or delete
  on oauth_tokens for each statement execute function notify_cache_channel('council_power');

-- The credential check's lookup of an access token, in the columns of api_key_lookup (migration
-- 0030) plus the token's resource: the token with its grant, client, person, team and the person's
-- current membership, by SHA-256 of the presented value.
create function oauth_token_lookup(presented_hash bytea)
returns table (
  id text, name text, kind text, scopes text[], allowed_ips text[],
  expires_at timestamptz, revoked_at timestamptz, last_used_at timestamptz, team_id text,
  account_id text, email text, account_name text,
  a_per_day integer, a_per_minute integer, a_ai_per_day integer,
  team_name text, features text[], t_per_day integer, t_per_minute integer, t_ai_per_day integer,
  role text, resource text
)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select g.id, c.client_name, 'oauth'::text, tk.scopes, '{}'::text[],
           tk.expires_at, coalesce(tk.revoked_at, g.revoked_at), g.last_used_at, g.team_id,
           a.id, a.email, a.name,
           a.requests_per_day, a.requests_per_minute, a.ai_answers_per_day,
           t.name, t.features, t.requests_per_day, t.requests_per_minute, t.ai_answers_per_day,
           m.role, tk.resource
      from oauth_tokens tk
      join oauth_grants g on g.id = tk.grant_id
      join oauth_clients c on c.id = g.client_id
      join accounts a on a.id = g.account_id
      left join teams t on t.id = g.team_id
      left join memberships m on m.team_id = g.team_id and m.account_id = g.account_id
     where tk.hash = presented_hash and tk.kind = 'access';
end
$$;
