// The CLI's side of the admin socket: send the command to the running service and relay its
// progress and result. A socket file nobody listens on is left by a service that died: remove it
// and let the CLI open the database itself.
import { connect } from 'node:net';
import { type AdminMessage, removeStaleSocket } from '../admin-socket.ts';
import type { Command } from './commands.ts';
import type { CommandIo, CommandResult } from './execute.ts';

/** An error the service reported for the command (code from the error catalogue). */
export class RemoteError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export type RemoteOutcome = { reached: false } | { reached: true; result: CommandResult };

export function runRemote(path: string, command: Command, io: CommandIo): Promise<RemoteOutcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let connected = false;
    let settled = false;
    let buffer = '';
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      fn();
    };
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command })}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let m: AdminMessage;
        try {
          m = JSON.parse(line) as AdminMessage;
        } catch {
          finish(() => reject(new Error('the service sent an unreadable answer on the admin socket')));
          return;
        }
        if (m.type === 'progress') io.progress(m.line);
        else if (m.type === 'result') finish(() => resolve({ reached: true, result: m.result }));
        else finish(() => reject(new RemoteError(m.code, m.message)));
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && err.code === 'ENOENT') return finish(() => resolve({ reached: false }));
      if (!connected && err.code === 'ECONNREFUSED') {
        removeStaleSocket(path);
        return finish(() => resolve({ reached: false }));
      }
      // EACCES and the like: a service may be running as someone else; never open its data then.
      finish(() => reject(new Error(`cannot use the admin socket ${path}: ${err.message}`)));
    });
    socket.on('close', () => finish(() => reject(new Error('the service closed the admin socket before answering'))));
  });
}
