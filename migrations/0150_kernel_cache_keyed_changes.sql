-- Kept values are dropped only for what a change touches (issue 17 §1; src/kernel/coherence.ts).
--
-- Until now a change to any one row of the tables below sent an empty notification, which drops
-- everything every instance keeps on that channel: one person following a record emptied every
-- kept page (sitemaps included, rebuilt at a hundred times the cost), and revoking a bogus token at
-- /oauth/revoke (a statement that changes no row still fires a statement trigger) or creating and
-- revoking one's own keys emptied every instance's kept credentials. Now each changed row names
-- what it touches — a key `<what>:<id>` as the payload — and an instance drops only the values
-- kept under that key. An empty payload (TRUNCATE, and every change to the public record itself,
-- migration 0070) still drops everything.
--
-- The keys, and who keeps values under them:
--   follows:<type>:<ref_id>   a record's follower count, shown on its public page (surfaces/pages)
--   api_key:<id>              a kept API key (modules/credentials/verify.ts)
--   grant:<id>                a kept OAuth access token of that grant (its own revocation included)
--   account:<id>              every kept credential of that person (a membership names its person:
--                             a team credential acts with its creator's membership)
--   team:<id>                 every kept team credential of that team

-- The channel is tg_argv[0], the key's prefix tg_argv[1], and the columns after it make the rest of
-- the key. Both the row before and the row after are named (an update may move a row to another
-- key); PostgreSQL merges identical notifications of one transaction.
create function notify_cache_key() returns trigger
language plpgsql as $$
declare
  key_of_old text := tg_argv[1];
  key_of_new text := tg_argv[1];
  i int;
begin
  for i in 2 .. tg_nargs - 1 loop
    if tg_op <> 'INSERT' then key_of_old := key_of_old || ':' || (to_jsonb(old) ->> tg_argv[i]); end if;
    if tg_op <> 'DELETE' then key_of_new := key_of_new || ':' || (to_jsonb(new) ->> tg_argv[i]); end if;
  end loop;
  -- A key with a missing part would be NULL: the empty payload then drops everything, never too little.
  if tg_op <> 'INSERT' then perform pg_notify(tg_argv[0], coalesce(key_of_old, '')); end if;
  if tg_op <> 'DELETE' then perform pg_notify(tg_argv[0], coalesce(key_of_new, '')); end if;
  return null;
end
$$;

drop trigger follows_public_data_changed on follows;
create trigger follows_followers_changed
  after insert or delete or update of type, ref_id on follows
  for each row execute function notify_cache_key('council_public_data', 'follows', 'type', 'ref_id');

drop trigger api_keys_power_changed on api_keys;
create trigger api_keys_power_changed
  after update of account_id, team_id, name, kind, hash, scopes, allowed_ips, expires_at, revoked_at or delete
  on api_keys for each row execute function notify_cache_key('council_power', 'api_key', 'id');

drop trigger accounts_power_changed on accounts;
create trigger accounts_power_changed
  after update or delete on accounts for each row execute function notify_cache_key('council_power', 'account', 'id');

drop trigger teams_power_changed on teams;
create trigger teams_power_changed
  after update or delete on teams for each row execute function notify_cache_key('council_power', 'team', 'id');

drop trigger memberships_power_changed on memberships;
create trigger memberships_power_changed
  after insert or update or delete on memberships for each row execute function notify_cache_key('council_power', 'account', 'account_id');

drop trigger oauth_grants_power_changed on oauth_grants;
create trigger oauth_grants_power_changed
  after update of account_id, team_id, scopes, resource, revoked_at or delete
  on oauth_grants for each row execute function notify_cache_key('council_power', 'grant', 'id');

drop trigger oauth_tokens_power_changed on oauth_tokens;
create trigger oauth_tokens_power_changed
  after update of revoked_at, expires_at or delete
  on oauth_tokens for each row execute function notify_cache_key('council_power', 'grant', 'grant_id');

-- Emptying a whole table names no row: everything kept from it is dropped.
create trigger follows_truncated after truncate on follows for each statement execute function notify_cache_channel('council_public_data');
create trigger api_keys_truncated after truncate on api_keys for each statement execute function notify_cache_channel('council_power');
create trigger accounts_truncated after truncate on accounts for each statement execute function notify_cache_channel('council_power');
create trigger teams_truncated after truncate on teams for each statement execute function notify_cache_channel('council_power');
create trigger memberships_truncated after truncate on memberships for each statement execute function notify_cache_channel('council_power');
create trigger oauth_grants_truncated after truncate on oauth_grants for each statement execute function notify_cache_channel('council_power');
create trigger oauth_tokens_truncated after truncate on oauth_tokens for each statement execute function notify_cache_channel('council_power');
