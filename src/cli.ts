// The operator CLI: `council <command> [--json]` (decisions.md "operator CLI"). Parses with
// node:util parseArgs (cli/commands.ts), then runs the command where the data is (cli/run.ts).
// Exit codes: 0 done, 1 the command failed, 2 a bad argument.
import { adminSocketPath, socketIsLive } from './admin-socket.ts';
import { parseCommandLine, UsageError } from './cli/commands.ts';
import { formatResult } from './cli/format.ts';
import { helpText } from './cli/help.ts';
import { RemoteError } from './cli/remote.ts';
import { runCommand } from './cli/run.ts';
import { ConfigError, loadConfig } from './kernel/config.ts';
import { AppError, normalizeError } from './kernel/errors.ts';

function fail(message: string, code: 1 | 2): never {
  // One line, whatever the error carried.
  process.stderr.write(`council: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(helpText(parsed.topic));
    return;
  }
  const config = loadConfig();
  if (parsed.kind === 'serve') {
    if (!config.databaseUrl && (await socketIsLive(adminSocketPath(config)))) {
      fail(`the service is already running on ${config.dataDir}`, 1);
    }
    // Files the embedded database creates from now on are private too (DATA_DIR is 0700 already).
    if (!config.databaseUrl) process.umask(0o077);
    // Loaded only here: the other commands need neither the HTTP app nor its modules.
    const { startServer } = await import('./server.ts');
    const server = await startServer(config);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void server.close().then(() => process.exit(0)));
    }
    return;
  }
  const { command, json } = parsed;
  const result = await runCommand(config, command, { progress: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${formatResult(command, result)}\n`);
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || err instanceof ConfigError) fail(err.message, 2);
  if (err instanceof AppError || err instanceof RemoteError) fail(err.message, err.code === 'invalid_request' ? 2 : 1);
  const normalized = normalizeError(err);
  fail(normalized.code === 'unavailable' ? normalized.message : err instanceof Error ? err.message : String(err), 1);
}
