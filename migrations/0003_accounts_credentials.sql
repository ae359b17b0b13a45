-- Accounts, teams, memberships and API keys. Limits columns hold operator overrides; null means
-- the default of decisions.md.

create table accounts (
  id                    text primary key,
  email                 text not null,
  name                  text,
  requests_per_day      integer check (requests_per_day >= 0),
  requests_per_minute   integer check (requests_per_minute >= 0),
  ai_answers_per_day    integer check (ai_answers_per_day >= 0),
  created_at            timestamptz not null default now(),
  email_verified_at     timestamptz
);
create unique index accounts_email on accounts (lower(email));

create table teams (
  id                    text primary key,
  name                  text not null,
  features              text[] not null default '{}',
  requests_per_day      integer check (requests_per_day >= 0),
  requests_per_minute   integer check (requests_per_minute >= 0),
  ai_answers_per_day    integer check (ai_answers_per_day >= 0),
  created_at            timestamptz not null default now()
);

create table memberships (
  team_id     text not null references teams (id) on delete cascade,
  account_id  text not null references accounts (id) on delete cascade,
  role        text not null check (role in ('owner', 'admin', 'member')),
  created_at  timestamptz not null default now(),
  primary key (team_id, account_id)
);
create index memberships_account on memberships (account_id);

-- API keys: stored only as SHA-256 of the value; the first 8 characters are kept for lists.
-- scopes null = a legacy key made before scopes existed (acts as public.read public.ai).
create table api_keys (
  id              text primary key,
  account_id      text not null references accounts (id) on delete cascade,
  team_id         text references teams (id) on delete cascade,
  name            text not null,
  kind            text not null default 'scoped' check (kind in ('scoped', 'registration', 'legacy')),
  prefix          text not null,
  hash            bytea not null unique,
  scopes          text[],
  allowed_ips     text[] not null default '{}',
  expires_at      timestamptz,
  created_at      timestamptz not null default now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz,
  revoked_reason  text
);
create index api_keys_account on api_keys (account_id);
create index api_keys_team on api_keys (team_id) where team_id is not null;
