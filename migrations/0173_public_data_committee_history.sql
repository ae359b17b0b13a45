-- Committee history of the Legistar era (DataMade's council-flow, MIT, derived from its Open Civic
-- Data API for Chicago): alderpersons' committee terms (2007–2019) and committee attendance
-- (2011–2017), dated, kept apart from today's eLMS memberships (body_memberships), which the eLMS
-- adapter replaces body by body.
create table committee_terms (
  id              text primary key,
  person_id       text not null references people (id) on delete cascade,
  body_id         text not null references bodies (id) on delete cascade,
  start_date      date,
  end_date        date,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index committee_terms_person on committee_terms (person_id, start_date);
create index committee_terms_body on committee_terms (body_id, start_date);

-- One alderperson at one committee meeting: present (recorded among the meeting's participants) or
-- not recorded while on the committee by its terms. Only confirmed meetings.
create table committee_attendance (
  id              text primary key,
  body_id         text not null references bodies (id) on delete cascade,
  person_id       text not null references people (id) on delete cascade,
  date            date not null,
  present         boolean not null,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index committee_attendance_person on committee_attendance (person_id, date);
create index committee_attendance_body on committee_attendance (body_id, date);
