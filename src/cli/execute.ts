// The one command executor: the CLI calls it with its own context when it owns the database, and
// the admin socket calls it with the running service's context. It calls module services only, as
// the operator Actor (kernel/actor.ts): full power, never counted.
import { inBackground } from '../kernel/db-budget.ts';
import type { AppContext } from '../context.ts';
import { migrate } from '../kernel/migrate.ts';
import { operator } from '../kernel/actor.ts';
import type { Command } from './commands.ts';

export interface CommandIo {
  /** A progress line (ingest); the CLI writes these to stderr. */
  progress(line: string): void;
}

export type CommandResult = Record<string, unknown>;

/** Runs an operator command (from the CLI or the admin socket): background work, with no request's budget (kernel/db-budget.ts). */
export function execute(ctx: AppContext, command: Command, io: CommandIo): Promise<CommandResult> {
  return inBackground(() => executeCommand(ctx, command, io));
}

async function executeCommand(ctx: AppContext, command: Command, io: CommandIo): Promise<CommandResult> {
  const { accounts, credentials } = ctx.services;
  const accountId = async (email: string) => (await accounts.requireByEmail(email)).id;
  switch (command.name) {
    case 'migrate': {
      const result = await migrate(ctx.database);
      return { applied: result.applied, alreadyApplied: result.alreadyApplied };
    }
    case 'ingest': {
      const report = await ctx.services.ingest.run(command.source, {
        ...(command.from ? { from: command.from } : {}),
        ...(command.since ? { since: command.since } : {}),
        onProgress: (line) => io.progress(line),
      });
      return { ...report };
    }
    case 'accounts create':
      return { ...(await accounts.create({ email: command.email, name: command.accountName ?? null })) };
    case 'accounts show': {
      const account = await accounts.requireByEmail(command.email);
      return { ...account, teams: await accounts.memberships(account.id) };
    }
    case 'accounts limits': {
      const id = await accountId(command.email);
      return { ...(await accounts.setLimits(operator, { accountId: id, limits: command.limits })) };
    }
    case 'teams create': {
      const owner = await accountId(command.owner);
      return { ...(await accounts.teams.create(operator, { name: command.teamName, ownerAccountId: owner, features: command.features })) };
    }
    case 'teams show':
      return { ...(await accounts.teams.get(operator, command.team)) };
    case 'teams members add':
      return {
        team: command.team,
        members: await accounts.members.add(operator, { teamId: command.team, accountId: await accountId(command.email), role: command.role }),
      };
    case 'teams members set-role':
      return {
        team: command.team,
        members: await accounts.members.setRole(operator, { teamId: command.team, accountId: await accountId(command.email), role: command.role }),
      };
    case 'teams members remove':
      return { team: command.team, members: await accounts.members.remove(operator, { teamId: command.team, accountId: await accountId(command.email) }) };
    case 'teams features':
      return { ...(await accounts.teams.setFeatures(operator, { teamId: command.team, enable: command.enable, disable: command.disable })) };
    case 'teams limits':
      return { ...(await accounts.teams.setLimits(operator, { teamId: command.team, limits: command.limits })) };
    case 'keys create': {
      const created = await credentials.keys.create({
        by: operator,
        accountId: await accountId(command.email),
        name: command.keyName,
        scopes: command.scopes,
        teamId: command.team ?? null,
        expiresAt: command.expires ?? null,
        allowedIps: command.allowedIps ?? [],
      });
      // decisions.md: prints { id, key }; the value exists only in this answer.
      return { id: created.id, key: created.key };
    }
    case 'keys list': {
      const keys = await credentials.keys.list(operator, {
        ...(command.email ? { accountId: await accountId(command.email) } : {}),
        ...(command.team ? { teamId: command.team } : {}),
        includeRevoked: command.all,
      });
      return { keys };
    }
    case 'keys revoke':
      return { ...(await credentials.keys.revoke(operator, { id: command.id })) };
    case 'bulk': {
      const manifest = await ctx.services.bulk.export({ onProgress: (line) => io.progress(line) });
      return {
        dir: ctx.config.bulk.dir,
        snapshotAt: manifest.snapshotAt,
        schemaVersion: manifest.schemaVersion,
        files: manifest.files.map((f) => ({ name: f.name, rows: f.rows, bytes: f.bytes, sha256: f.sha256 })),
      };
    }
  }
}
