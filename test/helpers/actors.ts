// The Actor of an account for tests that call a module's service directly (the accounts and
// webhooks services take an Actor, kernel/actor.ts): the person acting for themselves, as their
// website session would. Those services read only who the account is and whether it is the
// operator; the gates in front of them (kernel/perform.ts) are tested through the surfaces.
import type { Actor } from '../../src/kernel/actor.ts';
import { sessionScopes } from '../../src/modules/credentials/verify-session.ts';

export function accountActor(accountId: string): Actor {
  return {
    account: { id: accountId, email: '', name: null },
    team: null,
    credential: { id: `test-session-${accountId}`, type: 'session', name: 'Test session', kind: 'session', expiresAt: null },
    scopes: sessionScopes(null),
    limitsOwner: { type: 'account', id: accountId },
    limits: { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 50 },
  };
}
