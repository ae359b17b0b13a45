-- A matter's latest action upstream (the most recent matter_actions.action_date), kept by ingest with
-- the actions it writes: when the record last changed at its source, as opposed to updated_at (when
-- it last changed here). Atom entries carry it as `updated`, the introduction date as `published`.
alter table matters add column last_action_date date;
update matters m set last_action_date = a.last
  from (select matter_id, max(action_date) as last from matter_actions group by matter_id) a
  where a.matter_id = m.id;
