-- Sign-in links limited per mailbox and per client address in a sliding hour
-- (modules/sessions/service.ts, kernel/window-limit.ts), counted from these rows, which are now
-- kept for an hour after they were asked for even once they expire.

-- The client address a link was asked for from, as surfaces/http/client-ip.ts derives it and
-- kernel/ip.ts groups it (an IPv6 address's /64).
alter table signin_links add column client_ip text;
create index signin_links_client on signin_links (client_ip, created_at) where client_ip is not null;
create index signin_links_email on signin_links (lower(email), created_at);
