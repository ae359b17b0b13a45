// API keys and the credential check (credential → Actor). What other modules may call.
import { createHash, randomBytes } from 'node:crypto';
import type { ModuleDeps } from '../../context.ts';
import type { DB } from '../../db-schema.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { Database } from '../../kernel/db.ts';
import { AppError } from '../../kernel/errors.ts';
import { legacyScopes, type LimitClass, type Scope } from '../../kernel/operations.ts';
import type { LimitState } from '../../surfaces/http/limit-headers.ts';
import type { Accounts } from '../accounts/index.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += BASE62[b % 62]; // 248 = 4 × 62: no modulo bias
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export function hashCredential(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface VerifyInput {
  token: string;
  ip: string;
  surface: 'api' | 'mcp' | 'a2a';
}

export interface Credentials {
  verify(input: VerifyInput): Promise<Actor>;
  keys: {
    create(input: { accountId: string; name: string; scopes: Scope[] | null }): Promise<{ id: string; key: string }>;
  };
  limits: {
    consume(actor: Actor, limitClass: LimitClass): Promise<LimitState>;
  };
  close(): Promise<void>;
}

export function createCredentials(deps: ModuleDeps, _others: { accounts: Accounts; database: Database<DB> }): Credentials {
  const { db, clock } = deps;
  const denied = (message: string) => new AppError('unauthorized', message);
  return {
    async verify({ token }) {
      const row = await db
        .selectFrom('api_keys as k')
        .innerJoin('accounts as a', 'a.id', 'k.account_id')
        .select(['k.id', 'k.name', 'k.kind', 'k.scopes', 'k.expires_at', 'k.revoked_at', 'a.id as account_id', 'a.email', 'a.name as account_name'])
        .where('k.hash', '=', hashCredential(token))
        .executeTakeFirst();
      if (!row || row.revoked_at || (row.expires_at && row.expires_at <= clock.now())) throw denied('The credential is not valid.');
      return {
        account: { id: row.account_id, email: row.email, name: row.account_name },
        team: null,
        credential: { id: row.id, type: 'api_key', name: row.name, kind: row.kind, expiresAt: row.expires_at },
        scopes: (row.scopes as Scope[] | null) ?? legacyScopes,
        limitsOwner: { type: 'account', id: row.account_id },
      };
    },
    keys: {
      async create({ accountId, name, scopes }) {
        const key = `ctk_${randomBase62(32)}`;
        const id = `key_${crypto.randomUUID()}`;
        await db
          .insertInto('api_keys')
          .values({ id, account_id: accountId, name, prefix: key.slice(0, 8), hash: hashCredential(key), scopes })
          .execute();
        return { id, key };
      },
    },
    limits: {
      async consume() {
        const w = { limit: 1000, remaining: 1000, reset: 86400 };
        return { day: w, minute: { limit: 60, remaining: 60, reset: 60 }, ai: { limit: 50, remaining: 50, reset: 86400 } };
      },
    },
    async close() {},
  };
}
