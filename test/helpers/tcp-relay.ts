// A TCP relay to the database server that a test can cut (every connection dropped, new ones
// refused) and restore: PostgreSQL lost and found again without touching the machine's shared
// server, which other tests use at the same time.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  server: Server;
  port: Promise<number>;
  cut(): void;
  restore(): void;
  /** `url` with its host and port turned to the relay's. */
  via(url: string): Promise<string>;
}

/** `onClientClosed`: called as each client's connection through the relay closes (a refused one included). */
export function tcpRelay(target: URL, options: { onClientClosed?: () => void } = {}): TcpRelay {
  let down = false;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (down) return client.destroy();
    if (options.onClientClosed) client.once('close', options.onClientClosed);
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const port = new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    server,
    port,
    cut() {
      down = true;
      for (const s of open) s.destroy();
    },
    restore() {
      down = false;
    },
    async via(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(await port);
      return through.href;
    },
  };
}
