/**
 * A headless Chromium for the report's browser checks (Debian's `chromium` package), driven with
 * playwright-core. `findChromium()` is null where none is installed (CI may lack it): tests skip then,
 * saying why. CLINETRAIL_CHROMIUM names another binary.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(): string | null {
  const given = process.env.CLINETRAIL_CHROMIUM;
  if (given) return existsSync(given) ? given : null;
  return CANDIDATES.find((c) => existsSync(c)) ?? null;
}

export const NO_CHROMIUM = `no Chromium found (${CANDIDATES.join(', ')}; or set CLINETRAIL_CHROMIUM): apt-get install chromium`;

/** What a page did while it loaded: console errors, page errors, and every request that was not the page's own file. */
export interface PageLog {
  consoleErrors: string[];
  pageErrors: string[];
  blockedRequests: string[];
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/**
 * Opens `file` from its file URL with the network blocked: every request but the page itself is aborted
 * and recorded. Resolves once the page has loaded.
 */
export async function openOffline(browser: Browser, file: string, width = 1280): Promise<{ page: Page; log: PageLog }> {
  const context = await browser.newContext({ offline: true, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const log: PageLog = { consoleErrors: [], pageErrors: [], blockedRequests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => log.pageErrors.push(e.message));
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    log.blockedRequests.push(route.request().url());
    return route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, log };
}
