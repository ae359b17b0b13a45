-- Counting many callers' requests in one statement (modules/credentials/limits/pg-store.ts): an
-- instance sends the requests that arrive while its previous counting statement runs as one
-- batch, so each light caller is still counted exactly, in the store, before it is answered,
-- without a round trip and a commit of its own. Each request of the batch is counted (or refused)
-- by credential_limits_consume as if it came alone, in the order given: requests of one owner
-- are given together and in their order of arrival, owners in a fixed order (the callers sort
-- them), so two batches lock counter rows in the same order and never deadlock.
-- p_keys, p_limits, p_counted and p_expires hold p_width windows per request, request after
-- request; p_amounts one amount per request. Returns each request's position (from 1), the
-- refused window's position (0 when counted) and the counts after it.
create function credential_limits_consume_batch(
  p_keys text[],
  p_limits integer[],
  p_counted boolean[],
  p_expires timestamptz[],
  p_amounts integer[],
  p_width integer
) returns table (ord integer, refused integer, counts integer[])
language plpgsql as $$
declare
  a integer;
  b integer;
begin
  for j in 1 .. coalesce(array_length(p_amounts, 1), 0) loop
    a := (j - 1) * p_width + 1;
    b := j * p_width;
    ord := j;
    select c.refused, c.counts into refused, counts
      from credential_limits_consume(p_keys[a:b], p_limits[a:b], p_counted[a:b], p_expires[a:b], p_amounts[j]) c;
    return next;
  end loop;
end
$$;
