-- What answers retrieve from (modules/public-data/repo-retrieval.ts).
--
-- Agenda items and public testimony become searchable, the way matters and meetings are
-- (migration 0001): generated tsvector columns with GIN indexes.
alter table agenda_items add column search tsvector generated always as (
  setweight(to_tsvector('simple', coalesce(record_number, '')), 'A') ||
  setweight(to_tsvector('english', coalesce(title, '')), 'B') ||
  setweight(to_tsvector('english', coalesce(action_text, '') || ' ' || coalesce(minutes_note, '')), 'C')
) stored;
create index agenda_items_search on agenda_items using gin (search);

-- Only testimony given in a public capacity (officials, City staff, lobbyists) is indexed:
-- residents and organization representatives are private people, so what they said can never
-- be found by a search, whatever later code does with the results.
alter table testimony add column search tsvector generated always as (
  case when speaker_kind in ('official', 'staff', 'lobbyist')
    then setweight(to_tsvector('english', coalesce(summary, '')), 'B') ||
         setweight(to_tsvector('simple', coalesce(organization, '')), 'C')
    else ''::tsvector
  end
) stored;
create index testimony_search on testimony using gin (search);

-- "What passed at the last City Council meeting": a body's latest actions and roll calls are
-- index range scans, not a scan of every action.
create index matter_actions_body_date on matter_actions (body_id, action_date desc);
create index roll_calls_body_date on roll_calls (body_id, date desc);
-- Actions whose source named the body without its id ("Chicago City Council").
create index matter_actions_unlinked_body on matter_actions (lower(body_name), action_date desc) where body_id is null;
