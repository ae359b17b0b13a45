-- Campaign money of aldermanic committees (Illinois State Board of Elections data) and the City
-- of Chicago's lobbyist disclosures (Board of Ethics data on the City's data portal).

create table committees (
  id              text primary key,
  name            text not null,
  isbe_id         text,                        -- ISBE committee id
  person_id       text references people (id) on delete set null,
  ward            integer check (ward between 1 and 50),
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index committees_person on committees (person_id);

create table receipts (
  id              text primary key,
  committee_id    text not null references committees (id) on delete cascade,
  received_date   date not null,
  amount          numeric(14, 2) not null,
  contributor     text not null,               -- "Last, First" or the organisation's name
  contributor_type text,                       -- Individual, Business, …
  occupation      text,
  employer        text,
  address         text,
  city            text,
  state           text,
  zip             text,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (
    to_tsvector('simple', coalesce(contributor, '') || ' ' || coalesce(employer, '') || ' ' || coalesce(occupation, ''))
  ) stored,
  unique (source, source_id)
);
create index receipts_committee on receipts (committee_id, received_date desc, id);
create index receipts_date on receipts (received_date desc, id);
create index receipts_search on receipts using gin (search);
create index receipts_updated on receipts (updated_at, id);

create table expenditures (
  id              text primary key,
  committee_id    text not null references committees (id) on delete cascade,
  expended_date   date not null,
  amount          numeric(14, 2) not null,
  payee           text not null,
  purpose         text,
  address         text,
  city            text,
  state           text,
  zip             text,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index expenditures_committee on expenditures (committee_id, expended_date desc, id);
create index expenditures_updated on expenditures (updated_at, id);

-- Lobbyists are people (kind 'lobbyist'); employers and clients are organisations.
create table lobbying_employers (
  id              text primary key,
  name            text not null,
  address         text,
  city            text,
  state           text,
  zip             text,
  country         text,
  phone           text,
  years           integer[] not null default '{}',
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (to_tsvector('simple', coalesce(name, ''))) stored,
  unique (source, source_id)
);
create index lobbying_employers_search on lobbying_employers using gin (search);

create table lobbying_clients (
  id              text primary key,
  name            text not null,
  address         text,
  city            text,
  state           text,
  zip             text,
  country         text,
  years           integer[] not null default '{}',
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  search          tsvector generated always as (to_tsvector('simple', coalesce(name, ''))) stored,
  unique (source, source_id)
);
create index lobbying_clients_search on lobbying_clients using gin (search);

-- Which lobbyist worked for which employer on behalf of which client, by year.
create table lobbying_engagements (
  lobbyist_id   text not null references people (id) on delete cascade,
  employer_id   text not null references lobbying_employers (id) on delete cascade,
  client_id     text not null references lobbying_clients (id) on delete cascade,
  year          integer not null,
  primary key (lobbyist_id, employer_id, client_id, year)
);
create index lobbying_engagements_client on lobbying_engagements (client_id);
create index lobbying_engagements_employer on lobbying_engagements (employer_id);

create table lobbying_compensation (
  id              text primary key,
  lobbyist_id     text not null references people (id) on delete cascade,
  client_id       text references lobbying_clients (id) on delete set null,
  period_start    date not null,
  period_end      date not null,
  amount          numeric(14, 2) not null,
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index lobbying_compensation_lobbyist on lobbying_compensation (lobbyist_id, period_start desc);
create index lobbying_compensation_client on lobbying_compensation (client_id, period_start desc);

create table lobbying_expenditures (
  id              text primary key,
  lobbyist_id     text not null references people (id) on delete cascade,
  client_id       text references lobbying_clients (id) on delete set null,
  period_start    date not null,
  period_end      date not null,
  expended_date   date,
  amount          numeric(14, 2) not null,
  action          text,
  purpose         text,
  recipient       text,
  kind            text not null check (kind in ('large', 'small')),
  source          text not null,
  source_id       text not null,
  source_url      text,
  first_seen_at   timestamptz not null default now(),
  last_synced_at  timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (source, source_id)
);
create index lobbying_expenditures_lobbyist on lobbying_expenditures (lobbyist_id, period_start desc);
create index lobbying_expenditures_client on lobbying_expenditures (client_id, period_start desc);

-- Political contributions lobbyists report; `recipient_person_id` links those made to a
-- City official when the recipient names one.
create table lobbying_contributions (
  id                  text primary key,
  lobbyist_id         text not null references people (id) on delete cascade,
  period_start        date not null,
  period_end          date not null,
  contribution_date   date,
  recipient           text not null,
  recipient_person_id text references people (id) on delete set null,
  amount              numeric(14, 2) not null,
  source              text not null,
  source_id           text not null,
  source_url          text,
  first_seen_at       timestamptz not null default now(),
  last_synced_at      timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  unique (source, source_id)
);
create index lobbying_contributions_lobbyist on lobbying_contributions (lobbyist_id, contribution_date desc);
create index lobbying_contributions_recipient on lobbying_contributions (recipient_person_id);

-- Lobbying activity: which department or official a lobbyist sought action from, for a client.
create table lobbying_activity (
  id                  text primary key,
  lobbyist_id         text not null references people (id) on delete cascade,
  client_id           text references lobbying_clients (id) on delete set null,
  period_start        date,
  period_end          date,
  action              text,                    -- Administrative, Legislative, Both
  action_sought       text,
  department          text,
  official_person_id  text references people (id) on delete set null,
  source              text not null,
  source_id           text not null,
  source_url          text,
  first_seen_at       timestamptz not null default now(),
  last_synced_at      timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  search              tsvector generated always as (
    to_tsvector('english', coalesce(action_sought, '') || ' ' || coalesce(department, ''))
  ) stored,
  unique (source, source_id)
);
create index lobbying_activity_lobbyist on lobbying_activity (lobbyist_id);
create index lobbying_activity_client on lobbying_activity (client_id);
create index lobbying_activity_official on lobbying_activity (official_person_id);
create index lobbying_activity_search on lobbying_activity using gin (search);
