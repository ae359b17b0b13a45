-- Public data: the council's bodies, people, matters, roll calls and votes, meetings, money and
-- lobbying. Every record keeps its provenance: source, source id, source URL, first seen, last
-- synced. `updated_at` moves only when a record's content changes (ingest compares before it
-- writes), so `updated_since` filters and incremental consumers see real changes only.

-- array_to_string is only STABLE; on text[] it is immutable in fact, and generated search
-- columns need an immutable expression.
create function text_array_to_string(text[]) returns text
  language sql immutable parallel safe as $$ select array_to_string($1, ' ') $$;

create table source_sync (
  source            text primary key,           -- 'elms', 'legistar:<client>', 'lobbying', 'campaign_finance', 'sample'
  last_started_at   timestamptz,
  last_success_at   timestamptz,
  last_error        text,
  last_error_at     timestamptz,
  high_water        text,                       -- the source's own watermark for incremental sync
  records_seen      integer not null default 0,
  records_changed   integer not null default 0
);

create table bodies (
  id              text primary key,
  name            text not null,
  abbreviation    text,
  kind            text not null check (kind in ('council', 'committee', 'joint_committee', 'other')),
  active          boolean not null default true,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (
    setweight(to_tsvector('english', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(abbreviation, '')), 'A')
  ) stored,
  unique (source, source_id)
);
create index bodies_search on bodies using gin (search);
create index bodies_updated on bodies (updated_at, id);

create table people (
  id              text primary key,
  name            text not null,                -- "First Last"
  sort_name       text not null,                -- "Last, First"
  given_name      text,
  family_name     text,
  kind            text not null check (kind in ('alderperson', 'official', 'staff', 'lobbyist', 'resident', 'organization_rep')),
  ward            integer check (ward between 1 and 50),
  current         boolean not null default false,
  email           text,
  phone           text,
  website         text,
  photo_url       text,
  address         text,
  organization    text,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(organization, '')), 'B') ||
    setweight(to_tsvector('simple', coalesce('ward ' || ward::text, '')), 'B')
  ) stored,
  unique (source, source_id)
);
create index people_search on people using gin (search);
create index people_kind on people (kind, sort_name, id);
create index people_ward on people (ward) where ward is not null;
create index people_updated on people (updated_at, id);

-- Terms of office: alderperson for a ward, or another office.
create table person_terms (
  id          bigserial primary key,
  person_id   text not null references people (id) on delete cascade,
  office      text not null,                   -- 'Alderperson', 'Mayor', 'City Clerk', …
  ward        integer check (ward between 1 and 50),
  start_date  date,
  end_date    date,
  unique (person_id, office, start_date)
);
create index person_terms_person on person_terms (person_id);

create table body_memberships (
  id          bigserial primary key,
  body_id     text not null references bodies (id) on delete cascade,
  person_id   text not null references people (id) on delete cascade,
  role        text not null default 'Member',   -- 'Chair', 'Vice Chair', 'Member', …
  start_date  date,
  end_date    date,
  unique (body_id, person_id, role, start_date)
);
create index body_memberships_person on body_memberships (person_id);

create table matters (
  id                    text primary key,       -- the source's matter id (eLMS matterId GUID, Legistar MatterId)
  record_number         text not null unique,   -- "O2023-0001234"
  legacy_record_number  text,
  type                  text not null,          -- Ordinance, Resolution, Order, Claim, Appointment, …
  title                 text not null,
  status                text,
  category              text,
  key_legislation       boolean not null default false,
  introduction_date     date,
  final_action_date     date,
  controlling_body_id   text references bodies (id) on delete set null,
  substitute_of_id      text references matters (id) on delete set null,  -- a substitute points at the original it replaced
  topics                text[] not null default '{}',
  sponsor_names         text not null default '', -- denormalised for search; maintained with matter_sponsors
  source                text not null,
  source_id             text not null,
  source_url            text,
  first_seen_at         timestamptz not null default now(),
  last_synced_at        timestamptz not null default now(),
  updated_at            timestamptz not null default now(),
  search                tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(record_number, '') || ' ' || coalesce(legacy_record_number, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(title, '')), 'B') ||
    setweight(to_tsvector('simple', coalesce(sponsor_names, '')), 'C') ||
    setweight(to_tsvector('english', text_array_to_string(topics)), 'C')
  ) stored,
  unique (source, source_id)
);
create index matters_search on matters using gin (search);
create index matters_intro on matters (introduction_date desc, id);
create index matters_type on matters (type, introduction_date desc);
create index matters_status on matters (status, introduction_date desc);
create index matters_body on matters (controlling_body_id, introduction_date desc);
create index matters_updated on matters (updated_at, id);
create index matters_record_lower on matters (lower(record_number));

create table matter_sponsors (
  matter_id   text not null references matters (id) on delete cascade,
  person_id   text references people (id) on delete set null,
  name        text not null,
  role        text not null check (role in ('sponsor', 'cosponsor', 'filing_sponsor', 'other')),
  sort        integer not null default 0,
  primary key (matter_id, name, role)
);
create index matter_sponsors_person on matter_sponsors (person_id, matter_id);

create table matter_actions (
  id            text primary key,
  matter_id     text not null references matters (id) on delete cascade,
  sort          integer not null,
  action_date   date,
  action_name   text not null,
  action_text   text,
  body_id       text references bodies (id) on delete set null,
  body_name     text,
  meeting_id    text,
  result        text,
  source        text not null,
  source_id     text not null,
  unique (source, source_id)
);
create index matter_actions_matter on matter_actions (matter_id, sort);

create table matter_attachments (
  matter_id   text not null references matters (id) on delete cascade,
  sort        integer not null,
  name        text not null,
  kind        text,
  url         text not null,
  primary key (matter_id, url)
);

-- Records related to a matter by record number (eLMS `relations`), resolved when both are known.
create table matter_relations (
  matter_id             text not null references matters (id) on delete cascade,
  related_record_number text not null,
  primary key (matter_id, related_record_number)
);

create table meetings (
  id              text primary key,
  body_id         text references bodies (id) on delete set null,
  body_name       text not null,
  start_time      timestamptz not null,
  location        text,
  status          text not null check (status in ('scheduled', 'cancelled', 'rescheduled', 'recessed', 'reconvened', 'held')),
  status_detail   text,                          -- the source's own status word, where it gave one
  comment         text,
  video_url       text,
  transcript_url  text,
  minutes_note    text,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (
    setweight(to_tsvector('english', coalesce(body_name, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(location, '')), 'C') ||
    setweight(to_tsvector('english', coalesce(comment, '')), 'C')
  ) stored,
  unique (source, source_id)
);
create index meetings_search on meetings using gin (search);
create index meetings_time on meetings (start_time desc, id);
create index meetings_body on meetings (body_id, start_time desc);
create index meetings_updated on meetings (updated_at, id);

create table meeting_documents (
  meeting_id  text not null references meetings (id) on delete cascade,
  sort        integer not null,
  name        text not null,
  kind        text,
  url         text not null,
  primary key (meeting_id, url)
);

create table agenda_items (
  id              text primary key,
  meeting_id      text not null references meetings (id) on delete cascade,
  sort            integer not null,
  matter_id       text references matters (id) on delete set null,
  record_number   text,
  title           text,
  action_text     text,
  minutes_note    text
);
create index agenda_items_meeting on agenda_items (meeting_id, sort);
create index agenda_items_matter on agenda_items (matter_id);

create table attendance (
  meeting_id  text not null references meetings (id) on delete cascade,
  person_id   text not null references people (id) on delete cascade,
  value       text not null,   -- 'Present', 'Absent', …
  primary key (meeting_id, person_id)
);
create index attendance_person on attendance (person_id);

-- Public testimony at a meeting: who spoke or wrote, for whom, on what.
create table testimony (
  id              text primary key,
  meeting_id      text not null references meetings (id) on delete cascade,
  matter_id       text references matters (id) on delete set null,
  person_id       text references people (id) on delete set null,
  speaker_name    text not null,
  speaker_kind    text not null check (speaker_kind in ('resident', 'organization_rep', 'official', 'staff', 'lobbyist')),
  organization    text,
  position        text check (position in ('supports', 'opposes', 'neutral')),
  mode            text check (mode in ('in_person', 'virtual', 'written')),
  summary         text,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index testimony_meeting on testimony (meeting_id);

-- One roll call: a recorded vote on an action. Tallies are stored and always equal the sums of
-- the per-person votes (ingest computes them from the votes it writes).
create table roll_calls (
  id              text primary key,
  matter_id       text references matters (id) on delete cascade,
  action_id       text references matter_actions (id) on delete set null,
  meeting_id      text references meetings (id) on delete set null,
  body_id         text references bodies (id) on delete set null,
  date            date not null,
  action_name     text not null,
  result          text,
  yea             integer not null default 0,
  nay             integer not null default 0,
  absent          integer not null default 0,
  not_voting      integer not null default 0,
  present         integer not null default 0,
  recused         integer not null default 0,
  vacant          integer not null default 0,
  rising_vote     integer not null default 0,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index roll_calls_matter on roll_calls (matter_id, date desc);
create index roll_calls_meeting on roll_calls (meeting_id);
create index roll_calls_date on roll_calls (date desc, id);
create index roll_calls_updated on roll_calls (updated_at, id);

-- One person's vote in one roll call. `date` and `matter_id` are copied from the roll call so
-- "how did this alderperson vote" is one index range scan.
create table votes (
  roll_call_id  text not null references roll_calls (id) on delete cascade,
  person_id     text not null references people (id) on delete cascade,
  value         text not null check (value in ('Yea', 'Nay', 'Absent', 'Not Voting', 'Present', 'Recused', 'Vacant', 'Rising Vote')),
  date          date not null,
  matter_id     text,
  updated_at    timestamptz not null default now(),
  primary key (roll_call_id, person_id)
);
create index votes_person on votes (person_id, date desc, roll_call_id);
create index votes_matter on votes (matter_id);
create index votes_updated on votes (updated_at);
