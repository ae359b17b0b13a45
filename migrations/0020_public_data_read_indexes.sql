-- Read-side indexes for the v1/v2 lists. Matters list newest first with undated matters last,
-- matching the keyset order `introduction_date desc nulls last, id`.
create index matters_intro_nulls_last on matters (introduction_date desc nulls last, id);
-- Votes of one matter in the list order (date desc, roll_call_id, person_id).
create index votes_matter_date on votes (matter_id, date desc, roll_call_id, person_id);
-- Lobbying activity aimed at one official, newest reporting period first.
create index lobbying_activity_official_period on lobbying_activity (official_person_id, period_start desc);
