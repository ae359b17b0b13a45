-- Progress of each source's latest scheduled sync (modules/public-data/ingest/schedule.ts): the
-- job that runs it writes here as it goes, so every instance can report it at /api/v1/sources.
-- One row per source, naming the job it belongs to; a new job of the source replaces it. No
-- trigger: /api/v1/sources is read from the database on every request, never from the caches.
create table ingest_progress (
  source      text primary key,
  job_id      text not null,
  message     text not null,
  records     integer not null default 0,
  updated_at  timestamptz not null
);
