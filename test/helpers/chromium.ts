// Debian's chromium through playwright-core (never a downloaded browser); test/helpers/free-port.ts gives a port
// so a test service can be started with BASE_URL equal to the address the browser opens (the
// CSRF origin check compares the two).
import { type Browser, chromium } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
