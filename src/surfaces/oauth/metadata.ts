// Authorization server metadata (RFC 8414 §2), with the agent registration block of decisions.md
// ("Surfaces": agent_auth).
import type { Config } from '../../kernel/config.ts';
import { allScopes } from '../../kernel/access.ts';

export function authorizationServerMetadata(config: Config) {
  const base = config.baseUrl;
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: allScopes,
    // draft-ietf-oauth-client-id-metadata-document §5: an https client_id names its metadata document.
    client_id_metadata_document_supported: true,
    // RFC 9207 §3: `iss` is in every authorization response.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/auth.md`,
    agent_auth: {
      register_uri: `${base}/agent/auth`,
      claim_uri: `${base}/agent/auth/claim`,
      revoke_uri: `${base}/agent/auth/revoke`,
      identity_types_supported: ['identity_assertion'],
      identity_assertion: { assertion_types_supported: ['verified_email'] },
      credential_types_supported: ['api_key'],
      events_supported: ['credential.issued', 'credential.revoked'],
    },
  };
}
