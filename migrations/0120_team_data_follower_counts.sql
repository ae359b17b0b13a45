-- Follower counts on the public pages (surfaces/pages): a matter's page shows how many people and
-- teams follow it. The count is read by (type, ref_id), and the public answers kept in memory
-- (surfaces/http/response-cache.ts) must drop when it changes, so a change to follows moves the
-- public-data channel of migration 0070 like any change to the public record. Follows change
-- rarely next to reads, so the pages stay in memory between them.
create index follows_ref on follows (type, ref_id);

create trigger follows_public_data_changed
  after insert or update or delete or truncate on follows
  for each statement execute function notify_cache_channel('council_public_data');
