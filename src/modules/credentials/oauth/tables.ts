// Kysely types of the oauth module's tables (migrations 0090, 0140).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type ClientKind = 'registered' | 'metadata_document';
export type ResourceName = 'api' | 'mcp' | 'a2a';

export interface OAuthClientsTable {
  id: string;
  kind: ClientKind;
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  /** Set from the service's clock on registration (the hourly count reads it); the database's now() otherwise. */
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Registered clients: the client address the registration came from (counted per hour). */
  registered_from: Generated<string | null>;
  fetched_at: Timestamp | null;
  fresh_until: Timestamp | null;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  account_id: string;
  team_id: string | null;
  scopes: string[];
  resource: ResourceName | null;
  created_at: Generated<Timestamp>;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
}

export interface OAuthCodesTable {
  hash: Buffer;
  client_id: string;
  account_id: string;
  team_id: string | null;
  scopes: string[];
  redirect_uri: string;
  code_challenge: string;
  resource: ResourceName | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  grant_id: string | null;
}

export interface OAuthTokensTable {
  hash: Buffer;
  grant_id: string;
  kind: 'access' | 'refresh';
  scopes: string[];
  resource: ResourceName | null;
  expires_at: Timestamp;
  created_at: Generated<Timestamp>;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
}
