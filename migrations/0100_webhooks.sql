-- Webhook endpoints of an account and the deliveries of events to them (modules/webhooks).
-- One delivery per (endpoint, event): however many instances publish the same event, the unique
-- key lets one row in, and the delivery job works that row. Every attempt is kept.

create table webhook_endpoints (
  id             text primary key,
  account_id     text not null references accounts (id) on delete cascade,
  url            text not null,
  -- The signing secret (`whsec_` + base64). Kept as is: each delivery is signed with it
  -- (Standard Webhooks); it is shown to the person once, when the endpoint is added.
  secret         text not null,
  created_at     timestamptz not null default now()
);
create index webhook_endpoints_account on webhook_endpoints (account_id, created_at);

create table webhook_deliveries (
  id               text primary key,
  endpoint_id      text not null references webhook_endpoints (id) on delete cascade,
  event_id         text not null,
  event_type       text not null,
  -- The exact JSON body sent and signed on every attempt.
  payload          text not null,
  status           text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts         integer not null default 0,
  created_at       timestamptz not null default now(),
  last_attempt_at  timestamptz,
  finished_at      timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_pending on webhook_deliveries (created_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc);

create table webhook_attempts (
  delivery_id  text not null references webhook_deliveries (id) on delete cascade,
  attempt      integer not null,
  at           timestamptz not null,
  -- The receiver's HTTP status, when it answered.
  status_code  integer,
  -- Why the attempt failed (no answer, refused address, non-2xx), null when it succeeded.
  error        text,
  primary key (delivery_id, attempt)
);
