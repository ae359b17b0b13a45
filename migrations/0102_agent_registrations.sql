-- Agent registration (spec "States and transitions: Agent registration"): an agent asks for a key
-- for a person's email; the person approves or denies on the emailed page; the agent claims the
-- key once. The claim token and the approval code are stored only as SHA-256.

create table agent_registrations (
  id              text primary key,
  email           text not null,
  agent_name      text not null,
  agent_uri       text,
  claim_hash      bytea not null,
  approve_hash    bytea not null unique,
  client_ip       text not null,
  status          text not null default 'pending' check (status in ('pending', 'approved', 'denied', 'claimed')),
  account_id      text references accounts (id) on delete cascade,
  key_id          text,
  -- RFC 8628 §3.5: the polling interval, grown by 5 s on every slow_down.
  interval_seconds integer not null,
  last_polled_at  timestamptz,
  created_at      timestamptz not null,
  expires_at      timestamptz not null,
  decided_at      timestamptz,
  claimed_at      timestamptz
);
create index agent_registrations_email on agent_registrations (lower(email), created_at);
create index agent_registrations_client on agent_registrations (client_ip, created_at);
