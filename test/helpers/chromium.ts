// Debian's chromium through playwright-core (never a downloaded browser); test/helpers/free-port.ts gives a port
// so a test service can be started with BASE_URL equal to the address the browser opens (the
// CSRF origin check compares the two).
import { type Browser, chromium } from 'playwright-core';

/**
 * How long a page's waits and navigations may take before the test fails: a bound, not a timing
 * assertion. Each wait is for something that must happen (a rendered element, a pushed change);
 * under the whole suite on both databases a two-core CI machine once took over 30 s (Playwright's
 * default) to render the v2 OpenAPI description in the viewer.
 */
export const PAGE_BOUND_MS = 120_000;

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
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
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(PAGE_BOUND_MS);
    return page;
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_BOUND_MS);
    return context;
  };
  return browser;
}
