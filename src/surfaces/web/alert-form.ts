// The alerts form of a follow (personal on /account/follows, a team's on its follow page): email
// off, immediately, daily or weekly, and/or webhook. One reading of the form for both, performing
// the follow's own alerts operations (`me.follows.alerts.*` or `team.follows.alerts.*`).
import { html } from 'hono/html';
import { AppError } from '../../kernel/errors.ts';
import { field } from './form.ts';
import type { Html } from './layout.ts';

export const alertChoices = [
  ['off', 'No email'],
  ['immediate', 'Immediately'],
  ['daily', 'Daily digest'],
  ['weekly', 'Weekly digest (Mondays)'],
] as const;

export interface AlertOperations {
  read(): Promise<{ email: { frequency: string } | null; webhook: boolean }>;
  set(email: { frequency: 'immediate' | 'daily' | 'weekly' } | null, webhook: boolean): Promise<unknown>;
  clear(): Promise<unknown>;
}

/** Applies a submitted alerts form: both off clears them (no error when already off). */
export async function applyAlertForm(ops: AlertOperations, body: unknown): Promise<void> {
  const email = field(body, 'email');
  const webhook = field(body, 'webhook') === 'on';
  if (email === 'off' && !webhook) {
    const alerts = await ops.read();
    if (alerts.email || alerts.webhook) await ops.clear();
    return;
  }
  if (email !== 'off' && email !== 'immediate' && email !== 'daily' && email !== 'weekly') {
    throw new AppError('invalid_request', 'Choose how often to get email: off, immediately, daily or weekly.');
  }
  await ops.set(email === 'off' ? null : { frequency: email }, webhook);
}

/** The email choices as a select (compact, for a row of a table). */
export function emailSelect(current: string, label: string): Html {
  return html`<label>${label} <select name="email">${alertChoices.map(([value, text]) => html`<option value="${value}" ${value === current ? 'selected' : ''}>${text}</option>`)}</select></label>`;
}
