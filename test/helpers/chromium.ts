// Debian's chromium through playwright-core (never a downloaded browser), and a free loopback port
// so a test service can be started with BASE_URL equal to the address the browser opens (the
// CSRF origin check compares the two).
import { createServer } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
