// The agent card (A2A v1.0 §8.2: discovery at /.well-known/agent-card.json): who the agent is,
// its skills, where its JSON-RPC interface is (v1.0 and v0.3 method names at one URL), that it
// streams, and how to authenticate: a bearer API key, or OAuth 2.1 authorization code with PKCE
// from this service's authorization server. A client that announces no A2A-Version (a v0.3
// client) gets the v0.3 shape of the same card, with the v1.0 interfaces embedded as the SDK's
// own compatibility layer does; a v1.0 client gets the v1.0 card.
import { AgentCard } from '@a2a-js/sdk';
import type { Config } from '../../kernel/config.ts';
import { scopeCatalogue } from '../../kernel/access.ts';

const description =
  "Answers questions about the Chicago City Council's public record — legislation, roll calls and votes, meetings, alderpersons, " +
  'campaign money and lobbying — citing every record an answer rests on. Needs a credential with the public.ai scope; each answer uses one of the daily AI answers.';

const skills = [
  {
    id: 'answer-question',
    name: 'Answer a question about the council',
    description:
      'Answers a question in plain words from the public record, with the records it rests on (matters, roll calls, meetings, people, committees, lobbyists) as citations linking to their pages.',
    tags: ['city council', 'chicago', 'legislation', 'votes', 'answers'],
    examples: [
      'What passed at the last City Council meeting?',
      'How did Ald. Hopkins vote on SO2026-0025407?',
      "Who gave the most to Brian Hopkins's committee?",
    ],
  },
  {
    id: 'look-up-record',
    name: 'Look up legislation, votes, people, money and lobbying',
    description:
      'Looks up a record by number, name, ward or date — a matter and where it stands, who sponsored it, a roll call, an alderperson and their ward, the largest contributors to a campaign committee, the lobbyists who reported contact with an official.',
    tags: ['look-up', 'matters', 'roll calls', 'campaign finance', 'lobbying'],
    examples: ['What is the status of SO2026-0027166?', 'Who represents the 25th ward?', 'Which lobbyists reported contact with Ald. Burnett?'],
  },
];

const modes = ['text/plain', 'application/json'];

/**
 * The card in its v1.0 JSON form, and as the SDK's handler takes it. `needs` is the scopes of the
 * operation every call is admitted as (answers.create), which the security requirements name.
 */
export function agentCard(config: Config, needs: readonly string[]) {
  const base = config.baseUrl;
  const url = `${base}/a2a`;
  const scopes = { 'public.ai': scopeCatalogue['public.ai'].description, 'public.read': scopeCatalogue['public.read'].description };
  const json = {
    name: 'Council Tracker',
    description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Council Tracker', url: base },
    version: '1.0.0',
    documentationUrl: `${base}/llms.txt`,
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'An API key (ctk_…) or an OAuth access token (cto_…) with the public.ai scope.' } },
      oauth: {
        oauth2SecurityScheme: {
          description: 'OAuth 2.1 authorization code with PKCE (S256); ask for the public.ai scope.',
          oauth2MetadataUrl: `${base}/.well-known/oauth-authorization-server`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}/oauth/authorize`,
              tokenUrl: `${base}/oauth/token`,
              refreshUrl: `${base}/oauth/token`,
              scopes,
              pkceRequired: true,
            },
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [...needs] } } }, { schemes: { oauth: { list: [...needs] } } }],
    defaultInputModes: modes,
    defaultOutputModes: modes,
    skills,
  };
  const card = AgentCard.fromJSON(json);
  return { card, v1: AgentCard.toJSON(card) as Record<string, unknown>, v03: legacyCard(json, scopes, needs) };
}

/** The same card in the v0.3 shape (url + preferredTransport; OpenAPI-style security schemes). */
function legacyCard(
  v1: { supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[] } & Record<string, any>,
  scopes: Record<string, string>,
  needs: readonly string[],
) {
  const flow = v1.securitySchemes.oauth.oauth2SecurityScheme.flows.authorizationCode;
  return {
    protocolVersion: '0.3.0',
    name: v1.name,
    description: v1.description,
    url: v1.supportedInterfaces[0]!.url,
    preferredTransport: 'JSONRPC',
    provider: v1.provider,
    version: v1.version,
    documentationUrl: v1.documentationUrl,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: v1.securitySchemes.bearer.httpAuthSecurityScheme.description },
      oauth: {
        type: 'oauth2',
        description: v1.securitySchemes.oauth.oauth2SecurityScheme.description,
        oauth2MetadataUrl: v1.securitySchemes.oauth.oauth2SecurityScheme.oauth2MetadataUrl,
        flows: { authorizationCode: { authorizationUrl: flow.authorizationUrl, tokenUrl: flow.tokenUrl, refreshUrl: flow.refreshUrl, scopes } },
      },
    },
    security: [{ bearer: [...needs] }, { oauth: [...needs] }],
    defaultInputModes: v1.defaultInputModes,
    defaultOutputModes: v1.defaultOutputModes,
    skills: v1.skills,
    supportsAuthenticatedExtendedCard: false,
    supportedInterfaces: v1.supportedInterfaces,
  };
}
