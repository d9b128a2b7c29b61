/**
 * Issue 25, point 4: one odd input never costs the fleet. Two collections of one Hostname (a machine
 * collected twice) both load, under distinct stable names (`SAME`, `SAME#2`) that `hosts.hostname`,
 * `load_runs.hosts_renamed` and the summary tie to one machine; a 5,000-character Hostname and a host
 * folder of 30 CJK characters (90 bytes, 270 once percent-encoded) load under their whole names, their
 * folders under OUT cut with a hash. Beside them an unrelated host gets every row it gets alone, and the
 * fleet is not changed by a byte. Before, the first refused the whole fleet (exit 2) and the others
 * failed it with ENAMETOOLONG (exit 1).
 */
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetWithControl, offlineCollection, STAMP, stampedCopy, uploadsOf, zipBytes } from '../helpers/velociraptor.js';
import { assertBuilt, describeRun, expectControlAsAlone, lit, query, runCli, workDir } from './harness.js';

const work = workDir('host-clashes');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const out = path.join(work, 'out');
const LONG = `WS-${'L'.repeat(4997)}`;
const CJK = '漢'.repeat(30);

let fleet: string;
let controlFleet: string;
let fleetBytes: () => unknown;
let before: unknown;
let run: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  assertBuilt();
  ({ fleet, controlFleet, bytes: fleetBytes } = fleetWithControl(work));
  const home = stampedCopy('lnx-u01/home', path.join(work, 'home'));
  const uploads = uploadsOf(path.join(home, 'u'), 'home/u');
  // one machine collected twice: the second time without its hooks log
  writeFileSync(path.join(fleet, 'a.zip'), await zipBytes(offlineCollection('SAME', uploads, STAMP)));
  const later = uploads.filter((u) => !u.client.endsWith('hooks.jsonl'));
  writeFileSync(path.join(fleet, 'b.zip'), await zipBytes(offlineCollection('SAME', later, STAMP)));
  writeFileSync(path.join(fleet, 'long.zip'), await zipBytes(offlineCollection(LONG, uploads, STAMP)));
  cpSync(home, path.join(fleet, CJK, 'home'), { recursive: true, preserveTimestamps: true });
  before = fleetBytes();
  run = await runCli(['load', '--fleet', fleet, '--out', out]);
}, 300_000);

describe('host names a fleet may bring', () => {
  it('load every image, the unrelated host with every row it has alone', async () => {
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, 'select host, status from hosts order by host')).toEqual([
      ['SAME', 'loaded'],
      ['SAME#2', 'loaded'],
      [LONG, 'loaded'],
      ['control', 'loaded'],
      [CJK, 'loaded'],
    ]);
    await expectControlAsAlone(out, controlFleet);
  });

  it('give two collections of one Hostname names of their own that say they are one machine', async () => {
    expect(await query(out, `select host, hostname, image_path from hosts where hostname = 'SAME' order by host`)).toEqual([
      ['SAME', 'SAME', path.join(fleet, 'a.zip')],
      ['SAME#2', 'SAME', path.join(fleet, 'b.zip')],
    ]);
    // each with its own rows: the later collection has no hooks log
    const stores = await query(
      out,
      `select host, list(distinct store order by store) from raw_events where host like 'SAME%' group by host order by host`,
    );
    expect((stores[0][1] as string[]).includes('hooks-log')).toBe(true);
    expect((stores[1][1] as string[]).includes('hooks-log')).toBe(false);
    expect(await query(out, 'select hosts_renamed from load_runs')).toEqual([[['SAME#2']]]);
    expect(run.stdout).toContain('; 1 image(s) whose host name another image claims, loaded as: SAME#2 (SAME)');
  });

  it('keep a host name whole however long, and cut its folders under OUT', async () => {
    expect(
      await query(out, `select count(*)::INTEGER from raw_events where host = ${lit(LONG)} and kind <> 'parser'`),
    ).not.toEqual([[0]]);
    expect(
      await query(out, `select count(*)::INTEGER from raw_events where host = ${lit(CJK)} and kind <> 'parser'`),
    ).not.toEqual([[0]]);
    for (const dir of [path.join(out, 'records'), path.join(out, 'parquet', 'events')])
      for (const name of readdirSync(dir)) expect(name.length, name).toBeLessThanOrEqual(200);
  });

  it('name every image alike on the next load, which reads nothing again', async () => {
    const again = await runCli(['load', '--fleet', fleet, '--out', out]);
    expect(again.code, describeRun(again)).toBe(0);
    expect(again.stdout).toMatch(/: 0 partition\(s\) written, \d+ unchanged, 0 removed;/);
    expect(await query(out, 'select host from hosts order by host')).toEqual([['SAME'], ['SAME#2'], [LONG], ['control'], [CJK]]);
  });

  it('change no byte of the fleet', () => {
    expect(fleetBytes()).toEqual(before);
  });
});
