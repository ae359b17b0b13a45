-- Team data (modules/team-data): follows (personal and team), team notes, positions (one stance per
-- team per bill) with their stance history, target lists and analytics dashboards. `seq` orders
-- each list: keyset cursors over it are stable when rows are added.

create table follows (
  id          text primary key,
  seq         bigint generated always as identity,
  account_id  text references accounts (id) on delete cascade,
  team_id     text references teams (id) on delete cascade,
  type        text not null check (type in ('legislation', 'person', 'body', 'search')),
  ref_id      text not null check (char_length(ref_id) between 1 and 200),
  label       text not null check (char_length(label) <= 200),
  created_by  text not null,
  created_at  timestamptz not null,
  -- A follow is either one person's (account) or a team's, never both.
  check ((account_id is null) <> (team_id is null))
);
create unique index follows_personal_ref on follows (account_id, type, ref_id) where account_id is not null;
create unique index follows_team_ref on follows (team_id, type, ref_id) where team_id is not null;
create index follows_personal_seq on follows (account_id, seq) where account_id is not null;
create index follows_team_seq on follows (team_id, seq) where team_id is not null;

create table team_notes (
  id            text primary key,
  seq           bigint generated always as identity,
  team_id       text not null references teams (id) on delete cascade,
  author_id     text not null references accounts (id) on delete cascade,
  body          text not null check (char_length(body) between 1 and 10000),
  subject_type  text check (subject_type in ('matter', 'person', 'meeting', 'body')),
  subject_ref   text,
  created_at    timestamptz not null,
  updated_at    timestamptz not null,
  check ((subject_type is null) = (subject_ref is null))
);
create index team_notes_team_seq on team_notes (team_id, seq);

-- The team's stance on a bill IS its positions row: one per team per matter.
create table team_positions (
  id             text primary key,
  seq            bigint generated always as identity,
  team_id        text not null references teams (id) on delete cascade,
  matter_id      text not null,
  record_number  text not null,
  label          text not null check (char_length(label) <= 200),
  stance         text not null check (stance in ('supports', 'opposes')),
  updated_at     timestamptz not null,
  unique (team_id, matter_id)
);
create index team_positions_team_seq on team_positions (team_id, seq);

-- Every change of a team's stance on a bill, kept after the stance is cleared.
create table team_stance_history (
  seq              bigint generated always as identity primary key,
  team_id          text not null references teams (id) on delete cascade,
  matter_id        text not null,
  stance           text check (stance in ('supports', 'opposes')),
  previous         text check (previous in ('supports', 'opposes')),
  source           text not null check (source in ('v2.stance', 'v2.positions', 'dashboard')),
  at               timestamptz not null,
  account_id       text not null,
  account_name     text not null,
  credential_type  text not null check (credential_type in ('api_key', 'oauth', 'session')),
  credential_id    text not null
);
create index team_stance_history_bill on team_stance_history (team_id, matter_id, seq);

create table team_targets (
  team_id    text not null references teams (id) on delete cascade,
  matter_id  text not null,
  person_id  text not null,
  contacted  boolean not null default false,
  seq        bigint generated always as identity,
  primary key (team_id, matter_id, person_id)
);

create table team_dashboards (
  id          text primary key,
  seq         bigint generated always as identity,
  team_id     text not null references teams (id) on delete cascade,
  name        text not null check (char_length(name) between 1 and 200),
  layout      jsonb not null,
  version     integer not null check (version >= 1),
  created_by  text not null,
  created_at  timestamptz not null,
  updated_at  timestamptz not null
);
create index team_dashboards_team_seq on team_dashboards (team_id, seq);
