/**
 * The report in headless Chromium (Debian's chromium, driven by playwright-core): the demo fleet's page,
 * with a prompt planted that is a script and the hunt pack run, opened from its file URL with the network
 * blocked, loads with no console error, no page error and no request, keeps its title (the script never
 * ran), draws its charts and the fleet timeline with the marks the warehouse holds, resolves every
 * drill-down link to an element of the page, and keeps each severity badge on one line in a narrow
 * window. Skipped, saying why, where no Chromium is installed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, NO_CHROMIUM, openOffline, type PageLog } from '../helpers/chromium.js';
import { cli, loadFleet, makeReport, sql } from '../helpers/report-page.js';
import { REPO } from '../helpers/source.js';

const CHROMIUM = findChromium();
const SCRIPT = `<script>document.title = 'pwned'; console.error('script ran')</script><img src=x onerror="console.error('img ran')">`;

let tmp = '';
let out = '';
let to = '';
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
  out = path.join(tmp, 'out');
  await loadFleet(fleet, out);
  const hunt = await cli(['hunt', '--out', out]);
  expect(hunt.code, hunt.stderr).toBe(0);
  to = path.join(tmp, 'report.html');
  await makeReport(out, to);
  browser = await launchChromium(CHROMIUM);
  ({ page, log } = await openOffline(browser, to));
});

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
      expect(await page.locator('svg.timeline').count()).toBe(1);
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
    it('draws the fleet timeline with a mark per host and bucket, as the warehouse counts sessions and findings', async () => {
      const svg = page.locator('svg.timeline');
      const unit = /per (day|week|month|quarter|year) and host/.exec((await svg.getAttribute('aria-label')) ?? '')?.[1];
      expect(unit).toBeDefined();
      const bucket = (column: string) => `strftime(date_trunc('${unit}', timezone('UTC', ${column})), '%Y-%m-%d')`;
      const expected = await sql(
        out,
        `select host || ' · ' || ${bucket('first_timestamp_utc')} || ': ' || count(*) || ' session(s)' as mark
         from sessions where first_timestamp_utc is not null group by host, ${bucket('first_timestamp_utc')}
         union all
         select host || ' · ' || ${bucket('timestamp_utc')} || ': ' || count(*) || ' finding(s)'
         from findings where is_recorded_time(timestamp_source) group by host, ${bucket('timestamp_utc')}`,
      );
      const titles = async (selector: string) =>
        Promise.all((await svg.locator(selector).all()).map(async (t) => (await t.textContent()) ?? ''));
      const sessions = await titles('rect.mark-sessions > title');
      const findings = await titles('circle.mark-findings > title');
      expect(findings.length, 'the hunts found something to draw').toBeGreaterThan(0);
      expect([...sessions, ...findings].sort()).toEqual(expected.map((e) => String(e.mark)).sort());
      // each mark sits in its host's row (level with the host's label) and in its bucket's column (left to right in time)
      const labels = new Map<string, number>();
      for (const label of await svg.locator('text:has(title)').all()) {
        const box = await label.boundingBox();
        labels.set((await label.locator('title').textContent()) ?? '', (box?.y ?? 0) + (box?.height ?? 0) / 2);
      }
      const marks = await Promise.all(
        (await svg.locator('rect.mark-sessions, circle.mark-findings').all()).map(async (m) => {
          const box = await m.boundingBox();
          const [head, when] = ((await m.locator('title').textContent()) ?? '').split(': ')[0].split(' · ');
          return {
            host: head,
            bucket: when,
            x: (box?.x ?? 0) + (box?.width ?? 0) / 2,
            y: (box?.y ?? 0) + (box?.height ?? 0) / 2,
          };
        }),
      );
      for (const m of marks) expect(Math.abs(m.y - (labels.get(m.host) ?? -100)), `${m.host} ${m.bucket}`).toBeLessThan(8);
      const byTime = [...marks].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
      for (let i = 1; i < byTime.length; i++)
        if (byTime[i].bucket !== byTime[i - 1].bucket) expect(byTime[i].x).toBeGreaterThan(byTime[i - 1].x);
    });

    it('resolves every drill-down link to an element of the page', async () => {
      const hrefs = await page.$$eval('a[href]', (links) => links.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.filter((h) => /^#(host|finding|session)-\d+$/.test(h)).length).toBeGreaterThan(10);
      // in the page, which has no script of its own: the ids the links name that no element has
      const dangling = await page.evaluate(
        `${JSON.stringify(hrefs)}.filter((h) => !h.startsWith('#') || document.getElementById(h.slice(1)) === null)`,
      );
      expect(dangling).toEqual([]);
    });

    it('links each host of the hosts table to its own section, and clicking one brings it into view', async () => {
      const [{ n: hosts }] = await sql(out, 'select count(*) as n from hosts');
      const links = await page.locator('#activity table a').all();
      expect(links).toHaveLength(Number(hosts));
      for (const link of links) {
        const id = (await link.getAttribute('href'))?.slice(1);
        await expect(page.locator(`section.host[id="${id}"] > h3`).textContent()).resolves.toBe(await link.textContent());
      }
      const last = links[links.length - 1];
      const target = (await last.getAttribute('href')) ?? '';
      await last.click();
      expect(await page.evaluate('location.hash')).toBe(target);
      const box = await page.locator(`[id="${target.slice(1)}"]`).boundingBox();
      expect(box?.y).toBeGreaterThanOrEqual(-1);
      expect(box?.y).toBeLessThan(900);
    });

    it('links each finding to its host and to its rows in context, the finding row marked among them', async () => {
      const [{ n }] = await sql(out, 'select count(*) as n from findings');
      const rows = await page.locator('#findings table').nth(2).locator('tbody tr').all();
      expect(rows).toHaveLength(Number(n));
      for (const row of rows) {
        const cells = await row.locator('td').allTextContents();
        const [host, context] = [row.locator('td').nth(2).locator('a'), row.locator('td').nth(8).locator('a')];
        const hostId = (await host.getAttribute('href'))?.slice(1);
        await expect(page.locator(`section.host[id="${hostId}"] > h3`).textContent()).resolves.toBe(cells[2]);
        const block = page.locator(`div.finding[id="${(await context.getAttribute('href'))?.slice(1)}"]`);
        const text = (await block.textContent()) ?? '';
        expect(text).toContain(cells[1]);
        expect(text).toContain(cells[6]); // the summary, after the agent column
        expect(await block.locator('tr.role-finding').count()).toBe(1);
      }
    });

    it('keeps every severity badge on one line in a narrow window', async () => {
      const narrow = await openOffline(browser as Browser, to, 480);
      const badges = (await narrow.page.evaluate(
        `[...document.querySelectorAll('.sev')].map((e) => ({ text: e.textContent, lines: e.getClientRects().length,
          height: e.getBoundingClientRect().height, fontSize: Number.parseFloat(getComputedStyle(e).fontSize) }))`,
      )) as { text: string; lines: number; height: number; fontSize: number }[];
      expect(badges.length).toBeGreaterThan(0);
      for (const b of badges) {
        expect(b.lines, b.text).toBe(1);
        expect(b.height, b.text).toBeLessThan(b.fontSize * 2);
      }
      await narrow.page.context().close();
    });
  },
);
