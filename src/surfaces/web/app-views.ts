// Connected apps (OAuth grants) on the account page and a team's Settings → API keys: the app,
// its client id, what it may do, for whom, when it was last used, and a Disconnect button.
import { html } from 'hono/html';
import type { ConnectedApp } from '../../modules/credentials/oauth/index.ts';
import { csrfField, formatTime, type Html } from './layout.ts';

export function connectedAppsTable(apps: ConnectedApp[], base: string, csrfToken: string, showPerson: boolean): Html {
  if (apps.length === 0) return html`<p>No connected apps.</p>`;
  const rows = apps.map(
    (a) => html`<tr>
  <td>${a.clientName}</td>
  <td><code>${a.clientId}</code></td>
  <td>${a.team ? `Team: ${a.team.name}` : 'Personal'}</td>
  ${showPerson ? html`<td>${a.person}</td>` : ''}
  <td>${a.scopes.map((s) => html`<code>${s}</code> `)}</td>
  <td>${formatTime(a.createdAt)}</td>
  <td>${formatTime(a.lastUsedAt)}</td>
  <td><form method="post" action="${base}/apps/${a.id}/disconnect">${csrfField(csrfToken)}<button type="submit">Disconnect</button></form></td>
</tr>`,
  );
  return html`<table>
<thead><tr><th>App</th><th>Client</th><th>For</th>${showPerson ? html`<th>Connected by</th>` : ''}<th>Scopes</th><th>Connected</th><th>Last used</th><th>Actions</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}
