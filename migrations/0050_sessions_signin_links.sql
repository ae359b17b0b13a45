-- Website sign-in: emailed sign-in links and the sessions they start. Both are stored only as
-- SHA-256 of the token, so a copy of the database cannot sign anyone in.

create table signin_links (
  id          text primary key,
  email       text not null,
  hash        bytea not null unique,
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);
create index signin_links_expires on signin_links (expires_at);

-- Sliding expiry: every use moves expires_at forward (modules/sessions/service.ts); sign-out
-- deletes the row, so a stolen cookie of a signed-out session is worthless.
create table sessions (
  id            text primary key,
  account_id    text not null references accounts (id) on delete cascade,
  hash          bytea not null unique,
  created_at    timestamptz not null default now(),
  last_seen_at  timestamptz not null default now(),
  expires_at    timestamptz not null
);
create index sessions_account on sessions (account_id);
