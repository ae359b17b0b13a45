-- Dynamic client registration (RFC 7591) limited per client address, and clients that never got a
-- grant cleaned up (src/modules/oauth/cleanup.ts).

-- The client address a registered client came from (as surfaces/http/client-ip.ts derives it):
-- registrations from one address in the last hour are counted from these rows.
alter table oauth_clients add column registered_from text;
create index oauth_clients_registered_from on oauth_clients (registered_from, created_at) where registered_from is not null;

-- The clean-up asks "has this client any grant or recent code?" per client, and deleting a client
-- cascades to its grants and codes: both need an index on client_id to avoid a scan per client.
create index oauth_grants_client on oauth_grants (client_id);
create index oauth_codes_client on oauth_codes (client_id, expires_at);
