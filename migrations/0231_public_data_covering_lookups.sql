-- A page of votes (a person's, a matter's, a meeting's) names each vote's roll call and matter:
-- one look-up of each by id per row (modules/public-data/repo-votes.ts votePageRows). Through the
-- primary keys every look-up reads the index, then the row's heap page for the one or two columns
-- the page shows. With those columns in an index of their own the look-ups are index-only scans:
-- on the benchmark's council a person's page read 365 buffers instead of 465, and pgbench ran its
-- statement about 10 % faster (2,620 against 2,380 a second, 8 clients, the means of alternated
-- runs). The roll-call lists' join to matters for the record number takes the same path.
create index roll_calls_id_page on roll_calls (id) include (action_name, meeting_id);
create index matters_id_record on matters (id) include (record_number);
