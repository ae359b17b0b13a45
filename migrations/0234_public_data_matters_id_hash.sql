-- A search of matters walks the postings of one of its terms, newest first, and reads each
-- walked matter's row by id to check it against the whole query and rank it: 500 look-ups for a
-- page of relevance (modules/public-data/repo-matters.ts postingsMatches). Through the primary
-- key's B-tree each look-up descends three levels, comparing ids as text in the database's
-- collation, then reads the row: four buffers. A hash index finds the row's entry in one bucket
-- page, with no comparisons but equality: on the benchmark's council the search "speed humps" read
-- 1,054 buffers instead of 2,012, and pgbench ran its prepared statement in 2.88–2.96 ms against
-- 3.60–3.78 ms (alternated runs, one client). Look-ups that show only the record number keep the
-- covering B-tree of migration 0231 (index-only scans, which a hash index cannot serve).
create index matters_id_hash on matters using hash (id);
