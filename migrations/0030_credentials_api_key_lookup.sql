-- The credential check's lookup, run on every request: the key with its creator, team and the
-- creator's current membership, by SHA-256 of the presented value. A PL/pgSQL function keeps its
-- plan per session, so the four-table join is not planned again on every request (planning cost
-- more than executing it). The api_keys / accounts / teams / memberships columns it returns are
-- listed in src/modules/credentials/api-keys/repo.ts (VerifyRow).
create function api_key_lookup(presented_hash bytea)
returns table (
  id text, name text, kind text, scopes text[], allowed_ips text[],
  expires_at timestamptz, revoked_at timestamptz, last_used_at timestamptz, team_id text,
  account_id text, email text, account_name text,
  a_per_day integer, a_per_minute integer, a_ai_per_day integer,
  team_name text, features text[], t_per_day integer, t_per_minute integer, t_ai_per_day integer,
  role text
)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select k.id, k.name, k.kind, k.scopes, k.allowed_ips,
           k.expires_at, k.revoked_at, k.last_used_at, k.team_id,
           a.id, a.email, a.name,
           a.requests_per_day, a.requests_per_minute, a.ai_answers_per_day,
           t.name, t.features, t.requests_per_day, t.requests_per_minute, t.ai_answers_per_day,
           m.role
      from api_keys k
      join accounts a on a.id = k.account_id
      left join teams t on t.id = k.team_id
      left join memberships m on m.team_id = k.team_id and m.account_id = k.account_id
     where k.hash = presented_hash;
end
$$;
