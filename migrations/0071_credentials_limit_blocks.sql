-- Blocks of requests for busy owners (modules/credentials/limits/blocks.ts): an instance serving
-- many requests of one owner reserves a block of units in one call and gives back what it did
-- not use. credential_limits_consume gains the amount to count; credential_limits_release gives
-- units back. Both keep migration 0040's care: rows locked in the order given (every caller uses
-- the same window order, so row locks never deadlock), synchronous_commit off for their own
-- transaction only (locks released at once instead of after an fsync; a server crash can lose at
-- most the last fraction of a second of counts).
drop function credential_limits_consume(text[], integer[], boolean[], timestamptz[]);

-- Counts p_amount in several windows at once, or in none: windows are tried in the order given;
-- the first one whose count + p_amount would pass its limit refuses, and the windows already
-- counted are given back before the statement ends. The row locks held until then keep other
-- sessions from seeing or using the given-back counts. Returns the refused window's position
-- (0 when counted) and the counts of all windows after.
create function credential_limits_consume(
  p_keys text[],
  p_limits integer[],
  p_counted boolean[],
  p_expires timestamptz[],
  p_amount integer
) returns table (refused integer, counts integer[])
language plpgsql as $$
declare
  n integer := coalesce(array_length(p_keys, 1), 0);
  done text[] := '{}';
  v integer;
begin
  if p_amount is null or p_amount < 1 then
    raise exception 'credential_limits_consume: amount must be at least 1, got %', p_amount;
  end if;
  perform set_config('synchronous_commit', 'off', true);
  refused := 0;
  counts := array_fill(0, array[n]);
  for i in 1 .. n loop
    continue when not p_counted[i];
    v := null;
    if p_amount <= p_limits[i] then
      insert into credential_usage_counters as u (key, count, expires_at)
      values (p_keys[i], p_amount, p_expires[i])
      on conflict (key) do update set count = u.count + p_amount where u.count <= p_limits[i] - p_amount
      returning u.count into v;
    end if;
    if v is null then
      refused := i;
      update credential_usage_counters set count = count - p_amount where key = any (done);
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

-- Gives back p_amounts[i] units of p_keys[i] (the unused part of a block), never below 0. A row
-- already deleted (its bucket ended) is left alone. One row at a time, in the order given, for
-- the same lock order as credential_limits_consume.
create function credential_limits_release(p_keys text[], p_amounts integer[]) returns void
language plpgsql as $$
begin
  perform set_config('synchronous_commit', 'off', true);
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    continue when coalesce(p_amounts[i], 0) <= 0;
    update credential_usage_counters set count = greatest(count - p_amounts[i], 0) where key = p_keys[i];
  end loop;
end
$$;
