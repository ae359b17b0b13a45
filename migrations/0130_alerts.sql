-- Alerts on follows (modules/alerts). A person subscribes to a follow (their own, or one of their
-- team's) by email (immediately, daily or weekly) and/or webhook. After an ingest each watched
-- follow's new items are claimed once in alert_seen, in the same transaction that queues their
-- deliveries, so a change is announced once per follow however many instances look at it.

create table alert_subscriptions (
  id               text primary key,
  follow_id        text not null references follows (id) on delete cascade,
  account_id       text not null references accounts (id) on delete cascade,
  -- The team of a team follow: a member who leaves it loses their subscriptions to its follows.
  team_id          text references teams (id) on delete cascade,
  email_frequency  text check (email_frequency in ('immediate', 'daily', 'weekly')),
  webhook          boolean not null default false,
  -- Keys the HMAC of the unsubscribe link; a new key (a new subscription) voids old links.
  unsubscribe_key  text not null,
  created_at       timestamptz not null,
  updated_at       timestamptz not null,
  unique (follow_id, account_id)
);
create index alert_subscriptions_account on alert_subscriptions (account_id, team_id);

-- A follow with at least one subscription is watched from `since`: what was already there when
-- its first subscription was made is seen, never announced.
create table alert_watches (
  follow_id  text primary key references follows (id) on delete cascade,
  since      timestamptz not null
);

create table alert_seen (
  follow_id  text not null references follows (id) on delete cascade,
  item_key   text not null check (char_length(item_key) <= 300),
  seen_at    timestamptz not null,
  primary key (follow_id, item_key)
);

-- Items waiting for a subscription's daily or weekly digest.
create table alert_pending (
  subscription_id  text not null references alert_subscriptions (id) on delete cascade,
  item_key         text not null,
  item             jsonb not null,
  created_at       timestamptz not null,
  primary key (subscription_id, item_key)
);

-- Every delivery: what was sent (its items), when, and how it went. Kept after unsubscribing.
create table alert_deliveries (
  id               text primary key,
  seq              bigint generated always as identity,
  subscription_id  text references alert_subscriptions (id) on delete set null,
  follow_id        text not null references follows (id) on delete cascade,
  account_id       text not null references accounts (id) on delete cascade,
  channel          text not null check (channel in ('email', 'webhook')),
  frequency        text check (frequency in ('immediate', 'daily', 'weekly')),
  items            jsonb not null,
  status           text not null check (status in ('queued', 'sent', 'failed')),
  attempts         integer not null default 0,
  last_error       text,
  created_at       timestamptz not null,
  sent_at          timestamptz
);
create index alert_deliveries_follow on alert_deliveries (follow_id, account_id, seq desc);
