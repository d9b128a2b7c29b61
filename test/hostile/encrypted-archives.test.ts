/**
 * Issue 25, point 2: an encrypted collection is never a clean host. A collection zip loaded plain, then
 * found encrypted at the same path (WinZip AES, as zip.js writes it; ZipCrypto, as Info-ZIP's `zip -P`
 * does): without its password the host's status is `encrypted`, one `parser:` row says so, the load
 * exits 5, and the rows the host had are kept; with `--zip-password-file` it loads the same rows again.
 * Velociraptor's encrypted container (metadata.json and an AES data.zip) is reported by name. The fleet
 * is not changed by a byte.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encryptedContainer,
  encryptedZipBytes,
  fleetWithControl,
  offlineCollection,
  STAMP,
  stampedCopy,
  uploadsOf,
  writeTree,
  zipBytes,
} from '../helpers/velociraptor.js';
import { assertBuilt, describeRun, expectControlAsAlone, lit, query, runCli, workDir } from './harness.js';

const work = workDir('encrypted');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PASSWORD = 'correct horse battery staple';
const HOST = 'VR-ENC01';
const out = path.join(work, 'out');
const passwords = path.join(work, 'passwords.txt');
const hasInfoZip = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let fleet: string;
let controlFleet: string;
let fleetBytes: () => unknown;
let zip: string;
/** Every row of the host's stores, every column. */
const hostRows = () => query(out, `select * from raw_events where host = ${lit(HOST)} and store <> 'discovery' order by all`);
const statusOf = async (host: string) => (await query(out, `select status from hosts where host = ${lit(host)}`))[0]?.[0];

let members: ReturnType<typeof offlineCollection>;
let plainRows: unknown[][];

beforeAll(async () => {
  assertBuilt();
  ({ fleet, controlFleet, bytes: fleetBytes } = fleetWithControl(work));
  zip = path.join(fleet, 'alice.zip');
  const home = stampedCopy('lnx-u01/home', path.join(work, 'home'));
  members = offlineCollection(HOST, uploadsOf(path.join(home, 'u'), 'home/u'), STAMP);
  writeFileSync(zip, await zipBytes(members));
  writeFileSync(passwords, `wrong one\n${PASSWORD}\n`);
  const plain = await runCli(['load', '--fleet', fleet, '--out', out]);
  expect(plain.code, describeRun(plain)).toBe(0);
  plainRows = await hostRows();
  expect(plainRows.length).toBeGreaterThan(10);
}, 300_000);

/** Loads the fleet (with the password file when asked), checking that it changes no byte of it. */
async function loadFleet(withPasswords: boolean): Promise<Awaited<ReturnType<typeof runCli>>> {
  const before = fleetBytes();
  const run = await runCli([
    'load',
    '--fleet',
    fleet,
    '--out',
    out,
    ...(withPasswords ? ['--zip-password-file', passwords] : []),
  ]);
  expect(fleetBytes()).toEqual(before);
  return run;
}

describe.each([
  ['WinZip AES-256 (zip.js)', 'AES', async () => writeFileSync(zip, await encryptedZipBytes(members, PASSWORD))],
  [
    "ZipCrypto (Info-ZIP's zip -P)",
    'ZipCrypto',
    async () => {
      const tree = path.join(work, 'tree');
      rmSync(tree, { recursive: true, force: true });
      writeTree(tree, members);
      rmSync(zip);
      execFileSync('zip', ['-q', '-r', '-X', '-P', PASSWORD, zip, '.'], { cwd: tree });
    },
  ],
])('a collection zip encrypted with %s after its plain load', (_what, cipher, encrypt) => {
  it.skipIf(cipher === 'ZipCrypto' && !hasInfoZip)(
    'is status encrypted with a parser row and exit 5, its rows kept',
    async () => {
      await encrypt();
      const run = await loadFleet(false);
      expect(run.code, describeRun(run)).toBe(5);
      expect(await statusOf(HOST)).toBe('encrypted');
      expect(await hostRows()).toEqual(plainRows);
      const [[text]] = await query(out, `select text from raw_events where host = ${lit(HOST)} and store = 'discovery'`);
      expect(String(text)).toContain(
        `archive encrypted (${zip}): ${members.length} of ${members.length} file member(s) encrypted (${cipher}); give its password with --zip-password-file FILE`,
      );
      expect(run.stdout).toContain(`; 1 encrypted image(s), not read (see the parser rows; --zip-password-file): ${HOST}`);
      expect(run.stderr).toContain(`clinetrail: warning: ${HOST}: ${zip} not read (encrypted`);
      await expectControlAsAlone(out, controlFleet);
    },
  );

  it.skipIf(cipher === 'ZipCrypto' && !hasInfoZip)('loads the same rows with --zip-password-file', async () => {
    const run = await loadFleet(true);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await statusOf(HOST)).toBe('loaded');
    expect(await hostRows()).toEqual(plainRows);
    expect(
      await query(out, `select count(*)::INTEGER from raw_events where host = ${lit(HOST)} and store = 'discovery'`),
    ).toEqual([[0]]);
  });
});

describe("Velociraptor's encrypted container", () => {
  it('is reported by name, status encrypted, exit 5, password file or not', async () => {
    const inner = await zipBytes(offlineCollection('VR-SEALED', uploadsOf(path.join(work, 'home', 'u'), 'home/u'), STAMP));
    const container = path.join(fleet, 'sealed.zip');
    writeFileSync(container, await encryptedContainer(inner, PASSWORD, 'X509'));
    for (const withPasswords of [false, true]) {
      const run = await loadFleet(withPasswords);
      expect(run.code, describeRun(run)).toBe(5);
      expect(await statusOf('sealed')).toBe('encrypted');
      const [[text]] = await query(out, `select text from raw_events where host = 'sealed'`);
      expect(String(text)).toContain(
        `archive encrypted (${container}): a Velociraptor encrypted container (data.zip, its password sealed to the Velociraptor server's key (metadata.json scheme X509))`,
      );
    }
    rmSync(container);
  });

  it('without metadata.json (a download exported with a password) too', async () => {
    const inner = await zipBytes(offlineCollection('VR-PW', uploadsOf(path.join(work, 'home', 'u'), 'home/u'), STAMP));
    const container = path.join(fleet, 'exported.zip');
    writeFileSync(container, await encryptedContainer(inner, PASSWORD, null));
    const run = await loadFleet(false);
    expect(run.code, describeRun(run)).toBe(5);
    const [[text]] = await query(out, `select text from raw_events where host = 'exported'`);
    expect(String(text)).toContain('a Velociraptor encrypted container (data.zip, encrypted with a password)');
    rmSync(container);
  });
});
