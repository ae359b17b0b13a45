// The consent page: names the app, where it sends the person back (its redirect host), every
// scope it asks for in plain words, and for each owner the person may choose (Personal, or a team
// where they may make team keys) what that grant would hold. Approve or Deny, CSRF-protected.
import { html } from 'hono/html';
import { type Scope, scopeCatalogue } from '../../kernel/access.ts';
import type { AuthorizationRequest, OwnerChoice } from '../../modules/credentials/oauth/index.ts';
import { csrfField, errorBox, type Html } from '../web/layout.ts';

const surfaceWords = { api: 'the JSON API (/api)', mcp: 'the MCP server (/mcp)', a2a: 'the A2A agent (/a2a)' } as const;

/** Where the browser goes afterwards, as a person recognises it: the host, or the app's own scheme. */
export function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host || `${url.protocol}//`;
}

function scopeList(scopes: readonly Scope[]): Html {
  return html`<ul>${scopes.map((s) => html`<li><code>${s}</code>: ${scopeCatalogue[s].description}</li>`)}</ul>`;
}

export function consentBody(request: AuthorizationRequest, owners: OwnerChoice[], csrfToken: string, error: string | null): Html {
  const { client } = request;
  const hidden = Object.entries(request.params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  const choose = owners.length
    ? html`<fieldset><legend>Give access for</legend>
${owners.map(
  (o, i) => html`<label><input type="radio" name="owner" value="${o.value}" ${i === 0 ? 'checked' : ''}> ${o.label}</label>
<div class="grants">It will be able to: ${scopeList(o.scopes)}</div>`,
)}</fieldset>`
    : html`${errorBox('Nothing this app asks for can be granted by your account: personal access covers public and your own follows, team access needs a team where you may make team keys.')}`;
  return html`${errorBox(error)}
<p><strong>${client.name}</strong> wants to use Council Tracker on your behalf.</p>
<p>App: <code>${client.id}</code>${client.uri ? html` · <a href="${client.uri}" rel="noopener noreferrer">${client.uri}</a>` : ''}<br>
After you decide you go back to <strong>${redirectHost(request.redirectUri)}</strong>.</p>
<p>It asks for:</p>
${scopeList(request.scopes)}
<p>It may use them at ${request.resource ? surfaceWords[request.resource] : 'the JSON API, the MCP server and the A2A agent'}.
You can disconnect it at any time on your account page.</p>
<form method="post" action="/oauth/authorize">
  ${csrfField(csrfToken)}
  ${hidden}
  ${choose}
  ${owners.length ? html`<button type="submit" name="decision" value="approve">Approve</button>` : ''}
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`;
}
