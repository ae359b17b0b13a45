// The alerts operations: read, set and clear the caller's alerts on one of their follows, bound on
// v2 next to the follows (`/me/follows/{id}/alerts`, `/team/follows/{id}/alerts`) and on the
// dashboard's follow page. Personal follows take the personal follow scopes. On a team follow each
// member subscribes for themselves — it changes where that person's own email goes, not what the
// team follows — so any member with `team.follows.read` may set their own alerts, where changing
// the team's follows needs `team.follows.write` (owners and admins).
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import { Deleted } from '../../kernel/schema.ts';
import type { Alerts } from './index.ts';
import { AlertSettings, AlertSettingsInput, ByFollow } from './schema.ts';
import type { Whose } from './service.ts';

const op = operationsOf<Alerts>();

const about =
  'Alerts tell you when what a follow names changes: a matter gets an action or a roll call, a person votes or is named sponsor of a new matter, ' +
  'a committee has a meeting scheduled, held or cancelled, a search gains a new matching matter. What was already there when alerts were first set is not announced.';

function alertOperations(whose: Whose) {
  const tags = [whose];
  const kind = whose === 'me' ? 'one of your follows' : "one of the team's follows (your own subscription)";
  const read = whose === 'me' ? access.personal('me.follows.read') : access.team('team.follows.read', 'team_data');
  const write = whose === 'me' ? access.personal('me.follows.write') : access.team('team.follows.read', 'team_data', 'members');
  const common = { tags, private: true, limit: 'data' } as const;
  return {
    read: op({
      ...common,
      effect: 'read',
      access: read,
      summary: `Your alert settings on ${kind}, with your recent deliveries`,
      description: `${about} Each delivery shows what was sent, when, and its status. Another team's or person's follow is 404.`,
      input: ByFollow,
      output: AlertSettings,
      run: (a, actor, input) => a.service.get(actor, whose, input),
    }),
    set: op({
      ...common,
      effect: 'write',
      access: write,
      summary: `Set your alerts on ${kind}`,
      description: `${about} \`email.frequency\`: immediate (an email each time changes are found), daily or weekly (a digest at 12:00 UTC; weekly on Mondays). Every email has an unsubscribe link that needs no sign-in.`,
      input: AlertSettingsInput,
      output: AlertSettings,
      run: (a, actor, input) => a.service.set(actor, whose, input),
    }),
    clear: op({
      ...common,
      effect: 'write',
      access: write,
      summary: `Stop your alerts on ${kind}`,
      description: '404 when you have no alerts on it. Deliveries already made stay listed.',
      input: ByFollow,
      output: Deleted,
      run: (a, actor, input) => a.service.clear(actor, whose, input),
    }),
  };
}

const me = alertOperations('me');
const team = alertOperations('team');

export const alertsOperations = {
  'me.follows.alerts.read': me.read,
  'me.follows.alerts.set': me.set,
  'me.follows.alerts.clear': me.clear,
  'team.follows.alerts.read': team.read,
  'team.follows.alerts.set': team.set,
  'team.follows.alerts.clear': team.clear,
} satisfies Record<string, OperationDef<Alerts, any, any>>;
