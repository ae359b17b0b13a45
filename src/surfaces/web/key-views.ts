// API key pieces shared by the account page and the team's Settings → API keys page: the list
// (prefix, name, owner, scopes, created, last used, expiry), the edit forms and the create form.
// A key's value appears only in `createdKeyBox`, in the response to the create POST.
import { html } from 'hono/html';
import { type Scope, scopeCatalogue } from '../../kernel/access.ts';
import type { ApiKeyView } from '../../modules/credentials/index.ts';
import { csrfField, formatTime, type Html } from './layout.ts';

export interface OwnerChoice {
  /** 'personal' or a team id. */
  value: string;
  label: string;
}

export interface CreateFormOptions {
  action: string;
  csrfToken: string;
  owners: OwnerChoice[];
  /** The scopes offered, in catalogue order, with their plain-language descriptions. */
  scopes: Scope[];
  /** What the person typed last time, when the page comes back with an error. */
  previous?: { name: string; owner: string; scopes: string[]; expires: string; allowedIps: string };
}

const kindLabel = { any: 'any key', personal: 'personal keys only', team: 'team keys only' } as const;

function ownerLabel(key: ApiKeyView): string {
  return key.owner.type === 'team' ? `Team: ${key.owner.teamName}` : 'Personal';
}

function dateInput(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '';
}

export function keyTable(keys: ApiKeyView[], base: string, csrfToken: string, showCreator: boolean): Html {
  if (keys.length === 0) return html`<p>No API keys yet.</p>`;
  const rows = keys.map(
    (k) => html`<tr>
  <td><code>${k.prefix}…</code></td>
  <td>${k.name}</td>
  <td>${ownerLabel(k)}</td>
  ${showCreator ? html`<td>${k.createdBy.email}</td>` : ''}
  <td>${k.scopes.map((s) => html`<code>${s}</code> `)}</td>
  <td>${formatTime(k.createdAt)}</td>
  <td>${formatTime(k.lastUsedAt)}</td>
  <td>${k.expiresAt ? formatTime(k.expiresAt) : 'never'}</td>
  <td>${k.allowedIps.length ? k.allowedIps.join(', ') : 'any'}</td>
  <td>
    <details><summary>Rename</summary>
      <form method="post" action="${base}/${k.id}/rename">${csrfField(csrfToken)}
        <label>New name <input name="name" value="${k.name}" required maxlength="200"></label>
        <button type="submit">Rename</button></form></details>
    <details><summary>Change expiry</summary>
      <form method="post" action="${base}/${k.id}/expiry">${csrfField(csrfToken)}
        <label>Expires on (UTC; empty for never) <input type="date" name="expires" value="${dateInput(k.expiresAt)}"></label>
        <button type="submit">Save expiry</button></form></details>
    <details><summary>Change allowed IPs</summary>
      <form method="post" action="${base}/${k.id}/allowed-ips">${csrfField(csrfToken)}
        <label>Allowed IPs (addresses or CIDR ranges, separated by commas; empty for any)
          <input name="allowed_ips" value="${k.allowedIps.join(', ')}"></label>
        <button type="submit">Save allowed IPs</button></form></details>
    <form method="post" action="${base}/${k.id}/revoke">${csrfField(csrfToken)}
      <button type="submit">Revoke</button></form>
  </td>
</tr>`,
  );
  return html`<table>
<thead><tr><th>Prefix</th><th>Name</th><th>Owner</th>${showCreator ? html`<th>Made by</th>` : ''}<th>Scopes</th><th>Created</th><th>Last used</th><th>Expires</th><th>Allowed IPs</th><th>Actions</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

export function createKeyForm(o: CreateFormOptions): Html {
  const p = o.previous ?? { name: '', owner: o.owners[0]?.value ?? 'personal', scopes: [], expires: '', allowedIps: '' };
  return html`<form method="post" action="${o.action}">
  ${csrfField(o.csrfToken)}
  <label>Name <input name="name" value="${p.name}" required maxlength="200"></label>
  <fieldset><legend>Owner</legend>
    ${o.owners.map((c) => html`<label><input type="radio" name="owner" value="${c.value}" ${c.value === p.owner ? 'checked' : ''}> ${c.label}</label>`)}
  </fieldset>
  <fieldset><legend>Scopes: what the key may do</legend>
    ${o.scopes.map(
      (s) => html`<label><input type="checkbox" name="scopes" value="${s}" ${p.scopes.includes(s) ? 'checked' : ''}>
      <code>${s}</code> — ${scopeCatalogue[s].description} <small>(${kindLabel[scopeCatalogue[s].kind]})</small></label>`,
    )}
  </fieldset>
  <label>Expires on (UTC; optional) <input type="date" name="expires" value="${p.expires}"></label>
  <label>Allowed IPs (optional: addresses or CIDR ranges, separated by commas)
    <input name="allowed_ips" value="${p.allowedIps}" placeholder="203.0.113.7, 2001:db8::/32"></label>
  <button type="submit">Create key</button>
</form>`;
}

/** The new key's value, shown this once. */
export function createdKeyBox(name: string, value: string): Html {
  return html`<div class="notice" role="status">
  <p>Your new key <strong>${name}</strong> is below. Copy it now: it is shown only this once and cannot be shown again.</p>
  <p class="secret"><code>${value}</code></p>
  <p>Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
</div>`;
}
