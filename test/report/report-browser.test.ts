/**
 * The report in headless Chromium (Debian's chromium, driven by playwright-core): the demo fleet's page,
 * with a prompt planted that is a script, opened from its file URL with the network blocked, loads with
 * no console error, no page error and no request, keeps its title (the script never ran), and draws its
 * charts. Skipped, saying why, where no Chromium is installed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, NO_CHROMIUM, openOffline, type PageLog } from '../helpers/chromium.js';
import { loadFleet, makeReport } from '../helpers/report-page.js';
import { REPO } from '../helpers/source.js';

const CHROMIUM = findChromium();
const SCRIPT = `<script>document.title = 'pwned'; console.error('script ran')</script><img src=x onerror="console.error('img ran')">`;

let tmp = '';
let browser: Browser | undefined;
let page: Page;
let log: PageLog;

beforeAll(async () => {
  if (CHROMIUM === null) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-report-browser-'));
  const fleet = path.join(tmp, 'fleet');
  fs.cpSync(path.join(REPO, 'fixtures', 'fleet'), fleet, { recursive: true });
  const file = path.join(fleet, '0042/root/.cline/data/sessions/1760301000000_r00t1/1760301000000_r00t1.messages.json');
  const messages = JSON.parse(fs.readFileSync(file, 'utf8'));
  messages.messages[0].content = SCRIPT;
  fs.writeFileSync(file, JSON.stringify(messages));
  const out = path.join(tmp, 'out');
  await loadFleet(fleet, out);
  const to = path.join(tmp, 'report.html');
  await makeReport(out, to);
  browser = await launchChromium(CHROMIUM);
  ({ page, log } = await openOffline(browser, to));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(CHROMIUM === null)(
  `the page in headless Chromium${CHROMIUM === null ? ` (skipped: ${NO_CHROMIUM})` : ''}`,
  () => {
    it('loads with no console error, no page error and no request beyond its own file', () => {
      expect(log.consoleErrors).toEqual([]);
      expect(log.pageErrors).toEqual([]);
      expect(log.blockedRequests).toEqual([]);
    });

    it('runs no script from the evidence: the title stays and the planted text shows as text', async () => {
      expect(await page.title()).toBe('clinetrail fleet report');
      const session = page.locator('details.session', { hasText: '1760301000000_r00t1' });
      await session.locator('summary').click();
      await expect(session.locator('td', { hasText: "document.title = 'pwned'" }).first().textContent()).resolves.toBe(SCRIPT);
    });

    it('draws both charts with bars of non-zero size', async () => {
      const charts = await page.locator('svg.chart').all();
      expect(charts).toHaveLength(2);
      for (const chart of charts) {
        const box = await chart.boundingBox();
        expect(box?.width).toBeGreaterThan(100);
        expect(box?.height).toBeGreaterThan(50);
        const bars = await chart.locator('rect').all();
        expect(bars.length).toBeGreaterThan(0);
        const sizes = await Promise.all(bars.map((b) => b.boundingBox()));
        expect(sizes.every((s) => s !== null && s.width > 0 && s.height > 0)).toBe(true);
      }
    });
  },
);
