// Accounts, teams and memberships: what other modules may call.
import { AppError } from '../../kernel/errors.ts';
import type { ModuleDeps } from '../../context.ts';

export interface AccountRecord {
  id: string;
  email: string;
  name: string | null;
}

export interface Accounts {
  create(input: { email: string; name?: string | null }): Promise<AccountRecord>;
  findByEmail(email: string): Promise<AccountRecord | null>;
}

export function createAccounts(deps: ModuleDeps): Accounts {
  const { db } = deps;
  return {
    async create(input) {
      const email = input.email.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('invalid_request', 'A valid email address is required.');
      const row = await db
        .insertInto('accounts')
        .values({ id: `acc_${crypto.randomUUID()}`, email, name: input.name ?? null })
        .returning(['id', 'email', 'name'])
        .executeTakeFirstOrThrow();
      return row;
    },
    async findByEmail(email) {
      const row = await db
        .selectFrom('accounts')
        .select(['id', 'email', 'name'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
        .executeTakeFirst();
      return row ?? null;
    },
  };
}
