-- Request and AI-answer counters of the limits (modules/credentials/limits). One row per owner,
-- window and bucket, e.g. key 'account:acc_1:day:2025-01-31' or 'team:team_1:minute:29000000'.
-- A row is never reused once its bucket has passed, so rows past expires_at are deleted.
-- fillfactor leaves room on each page so the count updates stay HOT (no index change).
create table credential_usage_counters (
  key         text primary key,
  count       integer not null check (count >= 0),
  expires_at  timestamptz not null
) with (fillfactor = 50);

-- Counts one request in several windows at once, or in none: windows are tried in the order
-- given (every caller uses the same order, so row locks never deadlock); the first one at its
-- limit refuses, and the windows already counted are given back before the statement ends. The
-- row locks held until then keep other sessions from seeing or using the given-back counts.
-- Returns the refused window's position (0 when counted) and the counts of all windows after.
--
-- The transaction commits without waiting for its WAL flush (synchronous_commit off, for this
-- transaction only): the row locks are released at once instead of after an fsync, which keeps
-- one owner's concurrent requests from queueing. Counters stay crash-safe and replicated; a
-- server crash can lose at most the last fraction of a second of counts.
create function credential_limits_consume(
  p_keys text[],
  p_limits integer[],
  p_counted boolean[],
  p_expires timestamptz[]
) returns table (refused integer, counts integer[])
language plpgsql as $$
declare
  n integer := coalesce(array_length(p_keys, 1), 0);
  done text[] := '{}';
  v integer;
begin
  perform set_config('synchronous_commit', 'off', true);
  refused := 0;
  counts := array_fill(0, array[n]);
  for i in 1 .. n loop
    continue when not p_counted[i];
    v := null;
    if p_limits[i] > 0 then
      insert into credential_usage_counters as u (key, count, expires_at)
      values (p_keys[i], 1, p_expires[i])
      on conflict (key) do update set count = u.count + 1 where u.count < p_limits[i]
      returning u.count into v;
    end if;
    if v is null then
      refused := i;
      update credential_usage_counters set count = count - 1 where key = any (done);
      exit;
    end if;
    done := done || p_keys[i];
    counts[i] := v;
  end loop;
  -- Windows not counted here (or all of them after a refusal) are read as they stand.
  for i in 1 .. n loop
    continue when p_counted[i] and refused = 0;
    select u.count into v from credential_usage_counters u where u.key = p_keys[i];
    counts[i] := coalesce(v, 0);
  end loop;
  return next;
end
$$;
