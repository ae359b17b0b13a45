// OAuth tokens for tests that need one without a browser: the module's own authorization steps
// (register, check the request, approve for an owner, redeem the code with its verifier), the
// same calls the consent page and the token endpoint make.
import type { AppContext } from '../../src/context.ts';
import { s256 } from '../../src/modules/credentials/oauth/index.ts';

const REDIRECT = 'https://agent.example.net/callback';

/** Each minted client registers from a /64 of its own (in 2001:db8::/32, RFC 3849), so tests that mint many stay under the hourly limit. */
let minted = 0;
const nextAddress = () => `2001:db8:${(++minted).toString(16)}::1`;

export interface MintOptions {
  accountId: string;
  /** A team id, or null for a personal grant. */
  teamId: string | null;
  scopes: readonly string[];
  /** 'api', 'mcp' or 'a2a': the surface the token is bound to (RFC 8707). */
  resource?: string;
}

export async function mintOAuthTokens(ctx: AppContext, o: MintOptions): Promise<{ access_token: string; refresh_token: string; client_id: string }> {
  const oauth = ctx.services.oauth;
  const client = await oauth.clients.register({ redirect_uris: [REDIRECT], client_name: 'Test client' }, nextAddress());
  const verifier = crypto.randomUUID().repeat(2);
  const request = await oauth.authorize.check({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    scope: o.scopes.join(' '),
    ...(o.resource ? { resource: `${ctx.config.baseUrl}/${o.resource}` } : {}),
  });
  const location = await oauth.approve(request, o.accountId, o.teamId ?? 'personal');
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const tokens = await oauth.token({ grant_type: 'authorization_code', code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier });
  return { ...tokens, client_id: client.client_id };
}
