-- Idempotency keys of write requests (modules/idempotency). One row per (owner, key): inserting it
-- with ON CONFLICT DO NOTHING is the claim that lets exactly one request run, across every
-- instance on the database. `claim` names the run holding the row; status/headers/body are the
-- stored answer, null while that run is still going.
create table idempotency_keys (
  owner_type    text not null check (owner_type in ('account', 'team')),
  owner_id      text not null,
  key           text not null check (char_length(key) between 1 and 255),
  fingerprint   text not null,
  claim         text not null,
  status        integer,
  headers       jsonb,
  body          text,
  created_at    timestamptz not null,
  completed_at  timestamptz,
  primary key (owner_type, owner_id, key)
);
-- Expired rows are purged per owner on the next claim, and globally by purgeExpired.
create index idempotency_keys_created on idempotency_keys (created_at);
