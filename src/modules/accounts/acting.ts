// An adapter for the key, OAuth-app and security-log services, which still name their caller this
// way until they take an Actor (kernel/actor.ts) like the accounts and webhooks services. Nothing
// new should use it: `actingOf` turns an Actor into it at the boundary.
import { type Caller, isOperator } from '../../kernel/actor.ts';

export type Acting = { readonly type: 'operator' } | { readonly type: 'account'; readonly accountId: string };

/** A person acting for themselves (a signed-in session, an API call). */
export type AccountActing = Extract<Acting, { type: 'account' }>;

export function asAccount(accountId: string): AccountActing {
  return Object.freeze({ type: 'account', accountId });
}

export function actingOf(by: Caller): Acting {
  return isOperator(by) ? Object.freeze({ type: 'operator' }) : asAccount(by.account.id);
}
