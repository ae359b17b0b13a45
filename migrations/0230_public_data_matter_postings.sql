-- Per-term postings of matters in date order (issue 23, search that survives a news story).
-- Relevance ranks a search's 500 most recent matches. The GIN index finds every match but in no
-- order, and the date index orders every matter but must read past the ones that do not match,
-- so a term in 1–3 % of 200,000 matters cost thousands of page reads either way. A posting is one
-- lexeme of one matter's search vector, keyed by (lexeme, date newest first, id): the newest
-- matters holding a lexeme are the first entries of one index range, read in the order relevance
-- wants them (modules/public-data/search-postings.ts plans the walk).
--
-- A matter without an introduction date is stored as '-infinity', which sorts after every date
-- newest first, as `introduction_date desc nulls last` orders it, and keeps the key comparable
-- by equality (the triggers below and the walk's look-ups join on it).
create table matter_postings (
  lexeme     text not null,
  introduced date not null,
  matter_id  text not null
);
-- The key, in the walk's order: newest first, ties by id as the list orders them.
create unique index matter_postings_walk on matter_postings (lexeme, introduced desc, matter_id);

create function matter_postings_of(v tsvector, d date, mid text)
returns table (lexeme text, introduced date, matter_id text)
language sql immutable as $$
  select l, coalesce(d, '-infinity'::date), mid from unnest(tsvector_to_array(v)) l
$$;

-- Statement-level, with transition tables: an ingest's batch of a thousand matters is one insert
-- of postings. A posting's key holds its matter's id, so writers of different matters never wait
-- on each other's postings (a count per lexeme, kept here at first, made every ingest batch lock
-- the rows of common words until it committed; the walk's planner counts postings instead).
create function matter_postings_inserted() returns trigger language plpgsql as $$
begin
  insert into matter_postings (lexeme, introduced, matter_id)
    select p.* from new_rows n, matter_postings_of(n.search, n.introduction_date, n.id) p;
  return null;
end $$;

create function matter_postings_deleted() returns trigger language plpgsql as $$
begin
  delete from matter_postings t using old_rows o, matter_postings_of(o.search, o.introduction_date, o.id) p
    where t.lexeme = p.lexeme and t.introduced = p.introduced and t.matter_id = p.matter_id;
  return null;
end $$;

-- An update changes postings only where the search vector or the date changed (a sync that
-- touches `last_synced_at` alone costs one join of the transition tables). A matter's id never
-- changes (it is the source's).
create function matter_postings_updated() returns trigger language plpgsql as $$
begin
  with changed as (
    select o.search as was, o.introduction_date as was_on, n.search as now, n.introduction_date as now_on, n.id
    from old_rows o join new_rows n on n.id = o.id
    where o.search is distinct from n.search or o.introduction_date is distinct from n.introduction_date
  ), gone as (
    select x.* from changed c, matter_postings_of(c.was, c.was_on, c.id) x
    except
    select x.* from changed c, matter_postings_of(c.now, c.now_on, c.id) x
  ), deleted as (
    delete from matter_postings t using gone g
      where t.lexeme = g.lexeme and t.introduced = g.introduced and t.matter_id = g.matter_id
  )
  insert into matter_postings (lexeme, introduced, matter_id)
    select x.* from changed c, matter_postings_of(c.now, c.now_on, c.id) x
    except
    select x.* from changed c, matter_postings_of(c.was, c.was_on, c.id) x;
  return null;
end $$;

create function matter_postings_truncated() returns trigger language plpgsql as $$
begin
  truncate matter_postings;
  return null;
end $$;

create trigger matters_postings_inserted after insert on matters
  referencing new table as new_rows for each statement execute function matter_postings_inserted();
create trigger matters_postings_deleted after delete on matters
  referencing old table as old_rows for each statement execute function matter_postings_deleted();
create trigger matters_postings_updated after update on matters
  referencing old table as old_rows new table as new_rows for each statement execute function matter_postings_updated();
create trigger matters_postings_truncated after truncate on matters
  for each statement execute function matter_postings_truncated();

-- Every posting made again from the matters: the backfill below, and a bulk load that ran with
-- triggers off (the benchmark's generator loads as `session_replication_role = replica`).
create function matter_postings_rebuild() returns void language sql as $$
  truncate matter_postings;
  insert into matter_postings (lexeme, introduced, matter_id)
    select p.* from matters m, matter_postings_of(m.search, m.introduction_date, m.id) p;
$$;

select matter_postings_rebuild();
