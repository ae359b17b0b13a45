// Readable text for a command's result (without --json). Only presentation: the JSON form is the
// result object itself.
import type { Command } from './commands.ts';
import type { CommandResult } from './execute.ts';

type Any = Record<string, any>;

function limitsLine(r: Any): string {
  const l = r.limits ?? {};
  const o = r.limitOverrides ?? {};
  const one = (k: string, label: string) => `${l[k]} ${label}${o[k] === null || o[k] === undefined ? ' (default)' : ''}`;
  return `limits: ${one('requestsPerDay', 'requests/day')}, ${one('requestsPerMinute', 'requests/minute')}, ${one('aiAnswersPerDay', 'AI answers/day')}`;
}

function members(list: Any[]): string[] {
  return list.map((m) => `  ${m.role.padEnd(6)} ${m.email}${m.name ? ` (${m.name})` : ''}`);
}

function keyLines(k: Any): string {
  const owner = k.owner.type === 'team' ? `team ${k.owner.teamName} (${k.owner.teamId})` : 'personal';
  const state = k.revokedAt ? `revoked ${k.revokedAt}` : k.expiresAt ? `expires ${k.expiresAt}` : 'no expiry';
  return [
    `${k.id}  ${k.prefix}…  "${k.name}"  ${owner}, made by ${k.createdBy.email}`,
    `  scopes: ${k.scopes.join(' ')}; ${state}; last used ${k.lastUsedAt ?? 'never'}${k.allowedIps.length ? `; allowed IPs ${k.allowedIps.join(', ')}` : ''}`,
  ].join('\n');
}

export function formatResult(command: Command, r: CommandResult): string {
  const x = r as Any;
  switch (command.name) {
    case 'migrate':
      return x.applied.length ? `applied ${x.applied.length} migration(s): ${x.applied.join(', ')}` : 'the database is up to date';
    case 'ingest':
      return `${x.source}: ${x.seen} records seen, ${x.changed} changed (${x.startedAt} – ${x.finishedAt})`;
    case 'accounts create':
      return `created account ${x.id} <${x.email}>`;
    case 'accounts show':
      return [
        `${x.id} <${x.email}>${x.name ? ` ${x.name}` : ''}`,
        limitsLine(x),
        ...(x.teams.length ? x.teams.map((t: Any) => `team ${t.teamId} "${t.teamName}": ${t.role}`) : ['no teams']),
      ].join('\n');
    case 'accounts limits':
      return `${x.email}: ${limitsLine(x)}`;
    case 'teams create':
      return x.id;
    case 'teams show':
      return [`${x.id} "${x.name}"`, `features: ${x.features.join(', ') || 'none'}`, limitsLine(x), 'members:', ...members(x.members)].join('\n');
    case 'teams members add':
    case 'teams members set-role':
    case 'teams members remove':
      return [`members of ${x.team}:`, ...members(x.members)].join('\n');
    case 'teams features':
      return `${x.id}: features ${x.features.join(', ') || 'none'}`;
    case 'teams limits':
      return `${x.id}: ${limitsLine(x)}`;
    case 'keys create':
      return `id:  ${x.id}\nkey: ${x.key}\nThe key is shown only this once: store it now.`;
    case 'keys list':
      return x.keys.length ? x.keys.map(keyLines).join('\n') : 'no keys';
    case 'keys revoke':
      return `revoked ${x.id} (${x.prefix}…) at ${x.revokedAt}`;
    case 'bulk':
      return [
        `bulk export of the snapshot taken ${x.snapshotAt} (schema version ${x.schemaVersion}) in ${x.dir}:`,
        ...x.files.map((f: Any) => `  ${f.name}: ${f.rows} rows, ${f.bytes} bytes, sha256 ${f.sha256}`),
      ].join('\n');
  }
}
