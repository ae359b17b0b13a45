// The OAuth authorization server's routes: open by design (a client has no credential before it
// gets one), so they bind no catalogue operation. Each is listed here with what guards it instead;
// the inventory fails when the surface mounts a route this list does not name.
export interface OAuthRoute {
  method: 'GET' | 'POST' | 'OPTIONS';
  path: string;
  guard: string;
}

export const oauthRoutes: OAuthRoute[] = [
  { method: 'GET', path: '/.well-known/oauth-authorization-server', guard: 'public metadata (RFC 8414)' },
  { method: 'OPTIONS', path: '/oauth/:endpoint', guard: 'CORS preflight: no body, no state' },
  { method: 'POST', path: '/oauth/token', guard: 'the code with its PKCE verifier, or a refresh token, bound to the client' },
  { method: 'POST', path: '/oauth/register', guard: 'public clients only; redirect URIs checked (RFC 7591)' },
  { method: 'POST', path: '/oauth/revoke', guard: 'possession of the token (RFC 7009)' },
  { method: 'GET', path: '/oauth/authorize', guard: 'signed-in session (else sign-in); shows the consent, changes nothing' },
  { method: 'POST', path: '/oauth/authorize', guard: 'signed-in session and its CSRF token' },
];
