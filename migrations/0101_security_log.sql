-- An account's security log (modules/events): every credential issued to or revoked from the
-- account, newest first on the account's Security log page. The id is the event id that webhook
-- deliveries carry as webhook-id.

create table security_log (
  id           text primary key,
  account_id   text not null references accounts (id) on delete cascade,
  type         text not null,
  occurred_at  timestamptz not null,
  summary      text not null,
  data         jsonb not null
);
create index security_log_account on security_log (account_id, occurred_at desc, id desc);
