// api_keys rows → the list view. The hash never leaves the repo; the value is never stored.
import { isScope, legacyScopes, type Scope } from '../../../kernel/access.ts';
import type { ApiKeyView } from './schema.ts';
import type { KeyRow } from './repo.ts';

const iso = (d: unknown) => (d === null ? null : new Date(d as Date).toISOString());

export function presentKey(row: KeyRow): ApiKeyView {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    owner: row.team_id ? { type: 'team', teamId: row.team_id, teamName: row.team_name ?? '' } : { type: 'personal' },
    createdBy: { accountId: row.account_id, email: row.email },
    kind: row.kind,
    scopes: row.scopes === null ? [...legacyScopes] : row.scopes.filter((s): s is Scope => isScope(s)),
    allowedIps: row.allowed_ips,
    createdAt: iso(row.created_at)!,
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    revokedReason: row.revoked_reason,
  };
}
