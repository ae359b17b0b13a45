// The local admin socket: while the service owns the embedded database (only one process may open
// PGlite's data directory), the operator CLI sends its parsed command here and the service runs
// the same `execute` with its own context. A Unix socket in DATA_DIR with mode 0600: only this
// machine's user that runs the service can connect. Protocol: one JSON line in
// ({ command }), then JSON lines out: { type: 'progress', line }… and one
// { type: 'result', result } or { type: 'error', code, message }.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { type Command, commands } from './cli/commands.ts';
import { execute } from './cli/execute.ts';
import type { Config } from './kernel/config.ts';
import type { AppContext } from './context.ts';
import { AppError, normalizeError } from './kernel/errors.ts';

export function adminSocketPath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'admin.sock');
}

// sockaddr_un holds about 107 bytes on Linux (103 on macOS).
const MAX_SOCKET_PATH = 103;

export type AdminMessage =
  | { type: 'progress'; line: string }
  | { type: 'result'; result: Record<string, unknown> }
  | { type: 'error'; code: string; message: string };

/** Whether a live service answers on the socket (false for a missing or stale socket file). */
export function socketIsLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Removes a socket file no process listens on (left by a service that did not shut down). */
export function removeStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function isCommand(value: unknown): value is Command {
  const name = (value as { name?: unknown })?.name;
  return typeof name === 'string' && name !== 'serve' && Object.hasOwn(commands, name);
}

function serve(ctx: AppContext, socket: Socket): void {
  let buffer = '';
  let started = false;
  const send = (m: AdminMessage) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(m)}\n`);
  };
  socket.setEncoding('utf8');
  socket.on('error', () => {});
  socket.on('data', (chunk: string) => {
    if (started) return;
    buffer += chunk;
    const nl = buffer.indexOf('\n');
    if (nl < 0) {
      if (buffer.length > 1_000_000) socket.destroy();
      return;
    }
    started = true;
    void (async () => {
      try {
        const message = JSON.parse(buffer.slice(0, nl)) as { command?: unknown };
        if (!isCommand(message.command)) throw new AppError('invalid_request', 'unknown admin command');
        const command = message.command;
        ctx.log.info({ command: command.name }, 'admin command');
        const result = await execute(ctx, command, { progress: (line) => send({ type: 'progress', line }) });
        send({ type: 'result', result });
      } catch (err) {
        const e = err instanceof SyntaxError ? new AppError('invalid_request', 'the admin message is not JSON') : normalizeError(err);
        if (e.status >= 500) ctx.log.error({ err }, 'admin command failed');
        send({ type: 'error', code: e.code, message: e.message });
      } finally {
        socket.end();
      }
    })();
  });
}

export async function startAdminSocket(ctx: AppContext): Promise<{ path: string | null; close(): Promise<void> }> {
  const path = adminSocketPath(ctx.config);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    ctx.log.warn({ path }, 'DATA_DIR is too long a path for the admin socket; the CLI cannot reach this service while it runs');
    return { path: null, async close() {} };
  }
  if (await socketIsLive(path)) throw new Error(`another service already runs on ${ctx.config.dataDir}`);
  removeStaleSocket(path);
  const server = createServer((socket) => serve(ctx, socket));
  // The socket file is created by bind(), synchronously inside listen(): the umask makes it 0600
  // from its first moment, so there is no window in which another user could connect.
  const previous = process.umask(0o177);
  try {
    server.listen(path);
  } finally {
    process.umask(previous);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          removeStaleSocket(path);
          resolve();
        });
      }),
  };
}
