// The operator CLI.
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

const [command] = process.argv.slice(2);
if (command === 'serve') {
  const server = await startServer(loadConfig());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
} else {
  process.stderr.write(`unknown command: ${command}\n`);
  process.exit(2);
}
