/**
 * `make report-screenshot`: loads the demo fleet (fixtures/fleet) into a temporary OUT, runs the hunt pack
 * on it (so the page shows its findings), makes its report with the CLI's own command line and saves a screenshot of the page in headless Chromium (Debian's
 * chromium) as docs/report-demo.png, the picture docs/REPORT.md shows. Needs dist/ built.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommandLine } from '../src/cli/commands.js';
import { findChromium, launchChromium, NO_CHROMIUM, openOffline } from '../test/helpers/chromium.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function cli(args: string[]): Promise<void> {
  let stderr = '';
  const code = await runCommandLine(args, { stdout: () => {}, stderr: (t) => (stderr += t), stderrIsTTY: false });
  if (code !== 0) throw new Error(`clinetrail ${args[0]} exited ${code}: ${stderr}`);
}

async function main(): Promise<void> {
  const chromium = findChromium();
  if (chromium === null) throw new Error(NO_CHROMIUM);
  const to = path.join(REPO, 'docs', 'report-demo.png');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-report-shot-'));
  try {
    const out = path.join(tmp, 'out');
    await cli(['load', '--fleet', path.join(REPO, 'fixtures', 'fleet'), '--out', out, '--quiet']);
    await cli(['hunt', '--out', out]);
    const page = path.join(tmp, 'report.html');
    await cli(['report', '--out', out, '--to', page]);
    const browser = await launchChromium(chromium);
    try {
      const { page: tab, log } = await openOffline(browser, page);
      if (log.consoleErrors.length + log.pageErrors.length + log.blockedRequests.length > 0)
        throw new Error(`the page did not load cleanly: ${JSON.stringify(log)}`);
      // the first session open, to show what a timeline looks like
      await tab.locator('details.session summary').first().click();
      await tab.screenshot({ path: to, fullPage: true });
    } finally {
      await browser.close();
    }
    console.log(`report screenshot -> ${path.relative(REPO, to)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  console.error(`report-screenshot: ${err.message}`);
  process.exit(1);
});
