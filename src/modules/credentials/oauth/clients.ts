// OAuth clients: dynamic registration (RFC 7591) for clients that register, and client ID
// metadata documents (draft-ietf-oauth-client-id-metadata-document) for clients whose client_id
// is the https URL of a JSON document describing them. Every client is public: no secrets, token
// endpoint auth method "none" (OAuth 2.1 §2.1).
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { addressGroup } from '../../../kernel/ip.ts';
import { type WindowLimit, withinWindowLimit } from '../../../kernel/window-limit.ts';
import { randomBase62 } from '../token.ts';
import { type DocumentFetch, readMetadataDocument } from './metadata-document.ts';
import { oauthError } from './errors.ts';
import * as repo from './repo.ts';
import { checkRedirectUri } from './schema.ts';

export interface Client {
  id: string;
  name: string;
  uri: string | null;
  redirectUris: string[];
  kind: 'registered' | 'metadata_document';
}

const MAX_REDIRECT_URIS = 10;

function text(meta: Record<string, unknown>, name: string, max: number): string | null {
  const v = meta[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max) throw oauthError('invalid_client_metadata', `${name} must be text of at most ${max} characters.`);
  return v.trim() || null;
}

/** The metadata both ways of describing a client share (RFC 7591 §2), checked. */
export function checkClientMetadata(meta: unknown): { name: string | null; uri: string | null; redirectUris: string[] } {
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta))
    throw oauthError('invalid_client_metadata', 'The client metadata must be a JSON object.');
  const m = meta as Record<string, unknown>;
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw oauthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} redirect URIs.`);
  }
  const redirectUris = [...new Set(uris.map(checkRedirectUri))];
  // Public clients only: nothing here can keep a secret (OAuth 2.1 §2.1).
  const method = m.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none')
    throw oauthError('invalid_client_metadata', 'Only public clients are supported: token_endpoint_auth_method must be "none".');
  const grants = m.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    throw oauthError('invalid_client_metadata', 'grant_types may hold only authorization_code and refresh_token.');
  }
  const responses = m.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    throw oauthError('invalid_client_metadata', 'response_types may hold only code.');
  }
  const uri = text(m, 'client_uri', 2000);
  if (uri !== null && !/^https:\/\//.test(uri)) throw oauthError('invalid_client_metadata', 'client_uri must be an https URL.');
  return { name: text(m, 'client_name', 200), uri, redirectUris };
}

function present(row: repo.ClientRow): Client {
  return { id: row.id, name: row.client_name, uri: row.client_uri, redirectUris: row.redirect_uris, kind: row.kind };
}

export function createClients(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, fetchDocument: DocumentFetch) {
  const { db, clock, config } = deps;
  // Plain http and loopback documents only when OUTBOUND_ALLOW_LOOPBACK says so (off by default,
  // refused in production), as for every other fetch of a URL someone gave.
  const allowLoopback = config.outbound.allowLoopback;

  return {
    /**
     * RFC 7591 §3.1: registers a public client; the answer (§3.2.1) is what was registered. At most
     * OAUTH_REGISTRATIONS_PER_HOUR in an hour from one client address (an IPv6 one's /64, kept as `registered_from`)
     * (RFC 7591 §5 leaves abuse of open registration to the server). Metadata that cannot be
     * registered is refused first (400) and, storing nothing, does not count.
     */
    async register(meta: unknown, clientIp: string) {
      const checked = checkClientMetadata(meta);
      const from = addressGroup(clientIp);
      const id = `ctc_${randomBase62(24)}`;
      const name = checked.name ?? 'Unnamed app';
      const now = clock.now();
      const limit: WindowLimit = {
        keys: [`oauth.register:${from}`],
        windowSeconds: 3600,
        now,
        count: async (trx, since) => [{ ...(await repo.countRegisteredFrom(trx, from, since)), limit: config.oauth.registrationsPerHour }],
        message: 'Too many clients were registered from this address in the last hour; try again after Retry-After seconds.',
        // Neither RFC 7591 §3.2.2 nor RFC 6749 names a code for this; the service's own (decisions.md, "Errors").
        protocolCode: 'rate_limited',
      };
      const row = {
        id,
        kind: 'registered' as const,
        client_name: name,
        client_uri: checked.uri,
        redirect_uris: checked.redirectUris,
        registered_from: from,
        created_at: now,
      };
      await withinWindowLimit(db, limit, (trx) => repo.insertClient(trx, row));
      return {
        client_id: id,
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        client_name: name,
        ...(checked.uri ? { client_uri: checked.uri } : {}),
        redirect_uris: checked.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },

    /**
     * The client a client_id names: a registered one, or the metadata document at that URL (kept
     * as long as its cache headers allow, then fetched again). Unknown: invalid_client.
     */
    async resolve(clientId: unknown): Promise<Client> {
      if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 2000)
        throw oauthError('invalid_client', 'client_id is missing or not valid.');
      if (!/^https?:\/\//.test(clientId)) {
        const row = await repo.findClient(db, clientId);
        if (row?.kind !== 'registered')
          throw oauthError('invalid_client', 'Unknown client_id: register the client first, or use the URL of its metadata document.');
        return present(row);
      }
      const cached = await repo.findClient(db, clientId);
      const now = clock.now();
      if (cached && cached.kind === 'metadata_document' && cached.fresh_until && cached.fresh_until.getTime() > now.getTime()) return present(cached);
      const doc = await readMetadataDocument(clientId, fetchDocument, { allowLoopback, now });
      const checked = checkClientMetadata(doc.metadata);
      const row = {
        id: clientId,
        client_name: checked.name ?? new URL(clientId).host,
        client_uri: checked.uri,
        redirect_uris: checked.redirectUris,
        fresh_until: doc.freshUntil,
      };
      await repo.saveDocumentClient(db, row, now);
      return present({ ...row, kind: 'metadata_document' });
    },

    /** A client already known (token and revocation requests never fetch). */
    async known(clientId: unknown): Promise<Client> {
      if (typeof clientId !== 'string' || clientId.length === 0)
        throw oauthError('invalid_client', 'client_id is required (public clients identify themselves with it, RFC 6749 §3.2.1).');
      const row = await repo.findClient(db, clientId.slice(0, 2000));
      if (!row) throw oauthError('invalid_client', 'Unknown client_id.');
      return present(row);
    },
  };
}

export type Clients = ReturnType<typeof createClients>;
