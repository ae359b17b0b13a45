// Runs one parsed command where the data is: through the running service's admin socket when it
// owns the embedded database, else with a context of the CLI's own (PostgreSQL, or PGlite when
// no service runs).
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { adminSocketPath } from '../admin-socket.ts';
import type { Config } from '../kernel/config.ts';
import type { Command } from './commands.ts';
import { type CommandIo, type CommandResult, execute } from './execute.ts';
import { runRemote } from './remote.ts';

/** The CLI logs to stderr, so stdout holds only the command's output (one JSON object with --json). */
export function cliLogger(): FastifyBaseLogger {
  return pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2)) as unknown as FastifyBaseLogger;
}

export async function runCommand(config: Config, command: Command, io: CommandIo): Promise<CommandResult> {
  if (!config.databaseUrl) {
    const remote = await runRemote(adminSocketPath(config), command, io);
    if (remote.reached) return remote.result;
  }
  // Loaded only when the CLI opens the database itself; through the socket it is not needed.
  const { createContext } = await import('../context.ts');
  const ctx = await createContext(config, { log: cliLogger(), migrate: command.name !== 'migrate', caches: false });
  try {
    return await execute(ctx, command, io);
  } finally {
    await ctx.close();
  }
}
