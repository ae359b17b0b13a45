// The unsubscribe link's token: `<subscription id>.<HMAC-SHA256(subscription's key, purpose + id)>`.
// It needs no sign-in (a person reading the email may not be signed in on that device), so it is
// a signed capability for one thing only: turning off email for one subscription. The key is
// random per subscription and stored with it; a new subscription gets a new key, so links from
// before it stop working.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PURPOSE = 'council-tracker alert unsubscribe v1:';

export function newUnsubscribeKey(): string {
  return randomBytes(32).toString('base64url');
}

function mac(key: string, subscriptionId: string): string {
  return createHmac('sha256', key)
    .update(PURPOSE + subscriptionId)
    .digest('base64url');
}

export function unsubscribeToken(subscription: { id: string; unsubscribe_key: string }): string {
  return `${subscription.id}.${mac(subscription.unsubscribe_key, subscription.id)}`;
}

/** The subscription id a token names, or null when it is not shaped like one of ours. */
export function subscriptionOf(token: string): string | null {
  const m = /^(als_[0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return m ? m[1]! : null;
}

/** Whether the token was signed with this subscription's key (constant-time comparison). */
export function tokenMatches(token: string, subscription: { id: string; unsubscribe_key: string }): boolean {
  const expected = Buffer.from(unsubscribeToken(subscription));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
