-- Cache coherence between the instances sharing this database (src/kernel/coherence.ts).
--
-- Two NOTIFY channels tell every instance that something it may have cached has changed:
--   council_power        what a credential may do: keys, accounts, teams, memberships;
--   council_public_data  the public record (ingest, the sample load, an operator's psql).
-- Statement triggers send them, so every path that changes those tables is covered, whatever
-- code (or person) runs the statement. Identical notifications of one transaction are merged
-- by PostgreSQL, so an ingest batch sends one, not one per row.
--
-- Lost power must bite on the key's next request (spec "Rules" 1), so a change of power is
-- also acknowledged: the writer, after its commit, sends a barrier (a number from
-- cache_barrier_seq) on council_power and waits until every live instance has written a number
-- at least as high into cache_peers.acked. NOTIFY is delivered in commit order, so an instance
-- that has seen the barrier has seen (and dropped its cache for) the change before it. An
-- instance that stops renewing its row for longer than its lease stops using its cache, so a
-- writer never waits on a dead instance for more than the lease.

create table cache_peers (
  id          text primary key,
  acked       bigint not null default 0,
  renewed_at  timestamptz not null default now()
);

create sequence cache_barrier_seq;

-- The channel is the trigger's argument.
create function notify_cache_channel() returns trigger
language plpgsql as $$
begin
  perform pg_notify(tg_argv[0], '');
  return null;
end
$$;

-- last_used_at (touched at most once a minute per key) changes nothing a key may do.
create trigger api_keys_power_changed
  after update of account_id, team_id, name, kind, hash, scopes, allowed_ips, expires_at, revoked_at or delete
  on api_keys for each statement execute function notify_cache_channel('council_power');
create trigger accounts_power_changed
  after update or delete on accounts for each statement execute function notify_cache_channel('council_power');
create trigger teams_power_changed
  after update or delete on teams for each statement execute function notify_cache_channel('council_power');
create trigger memberships_power_changed
  after insert or update or delete on memberships for each statement execute function notify_cache_channel('council_power');

do $$
declare
  t text;
begin
  foreach t in array array[
    'source_sync', 'bodies', 'people', 'person_terms', 'body_memberships', 'matters', 'matter_sponsors',
    'matter_actions', 'matter_attachments', 'matter_relations', 'meetings', 'meeting_documents',
    'agenda_items', 'attendance', 'testimony', 'roll_calls', 'votes', 'committees', 'receipts',
    'expenditures', 'lobbying_employers', 'lobbying_clients', 'lobbying_engagements',
    'lobbying_compensation', 'lobbying_expenditures', 'lobbying_contributions', 'lobbying_activity'
  ] loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on %I for each statement execute function notify_cache_channel(''council_public_data'')',
      t || '_public_data_changed', t);
  end loop;
end
$$;
