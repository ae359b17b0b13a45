-- Gifts lobbyists reported giving to City officials and employees (Board of Ethics "Gifts" dataset
-- on the City's data portal, 5d79-9xqr), with the recipient as published and, where the recipient
-- is an alderperson named unambiguously, that person. Hosting expenditures (the "Expenditures -
-- Hosting" dataset, pvm2-bd2i: events for officials) join the other lobbying expenditures.
create table lobbying_gifts (
  id                  text primary key,
  lobbyist_id         text not null references people (id) on delete cascade,
  period_start        date not null,
  period_end          date not null,
  description         text,                    -- GIFT as published
  amount              numeric(14, 2) not null, -- VALUE as published
  recipient           text not null,           -- the recipient's name as published
  recipient_title     text,
  department          text,
  recipient_person_id text references people (id) on delete set null,
  source              text not null,
  source_id           text not null,
  source_url          text,
  first_seen_at       timestamptz not null default now(),
  last_synced_at      timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  unique (source, source_id)
);
create index lobbying_gifts_lobbyist on lobbying_gifts (lobbyist_id, period_start desc);
create index lobbying_gifts_recipient on lobbying_gifts (recipient_person_id, period_start desc);
create index lobbying_gifts_updated on lobbying_gifts (updated_at, id);

alter table lobbying_expenditures drop constraint lobbying_expenditures_kind_check;
alter table lobbying_expenditures add constraint lobbying_expenditures_kind_check check (kind in ('large', 'small', 'hosting'));
