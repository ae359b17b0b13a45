// The module services, wired once. Surfaces and the CLI call these, never SQL of their own.
import type { ModuleDeps } from './context.ts';
import type { DB } from './db-schema.ts';
import type { Database } from './kernel/db.ts';
import { type Accounts, createAccounts } from './modules/accounts/index.ts';
import { type Credentials, createCredentials } from './modules/credentials/index.ts';
import { createPublicData, type PublicData } from './modules/public-data/index.ts';
import { createIngest, type Ingest } from './modules/public-data/ingest/index.ts';

export interface Services {
  publicData: PublicData;
  ingest: Ingest;
  accounts: Accounts;
  credentials: Credentials;
  close(): Promise<void>;
}

export function createServices(deps: ModuleDeps, database: Database<DB>): Services {
  const accounts = createAccounts(deps);
  const credentials = createCredentials(deps, { accounts, database });
  const publicData = createPublicData(deps);
  const ingest = createIngest(deps);
  return {
    publicData,
    ingest,
    accounts,
    credentials,
    async close() {
      await credentials.close();
    },
  };
}
