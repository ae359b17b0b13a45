-- The public-record tables of 0172 and 0173 tell every instance when they change, as those of
-- 0070 do: kept answers that show gifts or committee history are dropped on a change.
do $$
declare
  t text;
begin
  foreach t in array array['lobbying_gifts', 'committee_terms', 'committee_attendance'] loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on %I for each statement execute function notify_cache_channel(''council_public_data'')',
      t || '_public_data_changed', t);
  end loop;
end
$$;
