/**
 * Membership (load/membership.ts): a load updates the hosts it is given and keeps every other host, so
 * collections can be added one at a time; `--prune` withdraws the hosts not in the input; a given host
 * whose image yields no Cline store keeps its earlier data (exit 4) unless `--accept-empty` names it.
 * The fleet is the demo fleet (fixtures/fleet), four hosts.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { captureCommandLine } from '../helpers/command-line.js';
import { REPO } from '../helpers/source.js';

const FLEET = path.join(REPO, 'fixtures', 'fleet');
const HOSTS = readdirSync(FLEET, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-membership-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
const newOut = () => path.join(work, `out-${++n}`);
const image = (host: string) => ({ host, root: path.join(FLEET, host) });

/** Every table and view of the warehouse but the load records, each as its rows in a total order (hunt_runs without the time the pack ran). */
async function contents(out: string): Promise<Record<string, unknown[][]>> {
  const names = (
    await queryWarehouse(
      out,
      `select table_name from information_schema.tables where table_schema = 'main' and table_name not in ('load_runs', 'raw_runs', 'hosts') and table_name not like 'int_%' order by 1`,
    )
  ).rows.map((r) => r[0] as string);
  const all: Record<string, unknown[][]> = {};
  for (const name of names) {
    const columns = name === 'hunt_runs' ? '* exclude (ran_at_utc)' : '*';
    all[name] = (await queryWarehouse(out, `select ${columns} from "${name}" order by all`)).rows;
  }
  // hosts but the times of the loads and the status (one by one, all but the last are absent from the last input)
  all.hosts = (
    await queryWarehouse(
      out,
      'select host, image_path, stores, count_files, count_rows, count_parser_errors from hosts order by all',
    )
  ).rows;
  return all;
}

const hostsIn = async (out: string) =>
  (await queryWarehouse(out, 'select distinct host from raw_events order by 1')).rows.map((r) => r[0]);

describe('membership', () => {
  it('gives the same warehouse when the hosts are loaded one by one as when they are loaded together', async () => {
    expect(HOSTS.length).toBeGreaterThan(2);
    const together = newOut();
    await runLoad({ hosts: HOSTS.map(image), out: together });
    const oneByOne = newOut();
    for (const host of HOSTS) {
      const run = await runLoad({ hosts: [image(host)], out: oneByOne });
      expect(run.partitions_removed).toBe(0);
    }
    expect(await hostsIn(oneByOne)).toEqual(HOSTS);
    const a = await contents(together);
    expect(Object.keys(a)).toContain('events');
    expect(await contents(oneByOne)).toEqual(a);
  });

  it('keeps the hosts not in the input and names them; --prune withdraws them', async () => {
    const out = newOut();
    await runLoad({ hosts: HOSTS.map(image), out });
    const late = await captureCommandLine(runCommandLine, [
      'load',
      '--quiet',
      '--host',
      `${HOSTS[0]}=${path.join(FLEET, HOSTS[0])}`,
      '--out',
      out,
    ]);
    expect(late.code, late.stderr).toBe(0);
    expect(late.stdout).toMatch(/ 0 removed; /);
    expect(late.stdout).toContain(`; ${HOSTS.length - 1} host(s) not in this input kept: ${HOSTS.slice(1).join(', ')}`);
    expect(await hostsIn(out)).toEqual(HOSTS);
    const pruned = await captureCommandLine(runCommandLine, [
      'load',
      '--quiet',
      '--prune',
      '--host',
      `${HOSTS[0]}=${path.join(FLEET, HOSTS[0])}`,
      '--out',
      out,
    ]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`host(s) not in this input withdrawn (--prune): ${HOSTS.slice(1).join(', ')}`);
    expect(await hostsIn(out)).toEqual([HOSTS[0]]);
  });

  it('keeps the data of a host whose image is now empty, says so and exits 4; --accept-empty replaces it', async () => {
    const out = newOut();
    const fleet = path.join(work, 'fleet-empty');
    for (const host of HOSTS) cpSync(path.join(FLEET, host), path.join(fleet, host), { recursive: true });
    await runLoad({ fleet, out });
    const victim = HOSTS.find((h) => h === 'lnx-u01') ?? HOSTS[0];
    const before = (await queryWarehouse(out, `select count(*) from raw_events where host = '${victim}'`)).rows;
    expect(Number(before[0][0])).toBeGreaterThan(0);
    // an unmounted disk: the folder is there, empty
    rmSync(path.join(fleet, victim), { recursive: true });
    mkdirSync(path.join(fleet, victim));
    const kept = await captureCommandLine(runCommandLine, ['load', '--quiet', '--fleet', fleet, '--out', out]);
    expect(kept.code).toBe(4);
    expect(kept.stderr).toBe(
      `clinetrail: warning: ${victim}: the image gave no Cline store; the data the warehouse held of it is kept (--accept-empty ${victim} replaces it)\n`,
    );
    expect(kept.stdout).toContain(`; 1 empty image(s), earlier data kept: ${victim}`);
    expect((await queryWarehouse(out, `select count(*) from raw_events where host = '${victim}'`)).rows).toEqual(before);
    const runs = await queryWarehouse(out, 'select hosts_kept_empty from load_runs order by started_at_utc desc limit 1');
    expect(runs.rows).toEqual([[[victim]]]);
    const accepted = await captureCommandLine(runCommandLine, [
      'load',
      '--quiet',
      '--fleet',
      fleet,
      '--accept-empty',
      victim,
      '--out',
      out,
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await queryWarehouse(out, `select count(*) from raw_events where host = '${victim}'`)).rows).toEqual([['0']]);
    expect(await hostsIn(out)).toEqual(HOSTS.filter((h) => h !== victim));
  });

  it('lists in `hosts` every host seen, with its image, status and what it holds; names an image with no Cline data', async () => {
    const out = newOut();
    const nothing = path.join(work, 'no-cline');
    mkdirSync(path.join(nothing, 'home', 'u', 'projects'), { recursive: true });
    const first = await captureCommandLine(runCommandLine, [
      'load',
      '--quiet',
      ...HOSTS.flatMap((h) => ['--host', `${h}=${path.join(FLEET, h)}`]),
      '--host',
      `bare=${nothing}`,
      '--out',
      out,
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('; 1 image(s) with no Cline data: bare');
    // a later load given one host only: the others are absent from the last input, and kept
    await runLoad({ hosts: [image(HOSTS[0])], out });
    const rows = (
      await queryWarehouse(
        out,
        `select host, image_path, status, stores, count_rows::INTEGER, first_loaded_at_utc is not null, last_seen_at_utc >= first_seen_at_utc from hosts order by host`,
      )
    ).rows;
    const held = await queryWarehouse(
      out,
      `select host, list(distinct store order by store) filter (where store <> 'discovery'), count(*)::INTEGER from raw_events group by host order by host`,
    );
    const heldBy = new Map(held.rows.map((r) => [r[0], r]));
    expect(rows).toEqual(
      [...HOSTS, 'bare']
        .sort()
        .map((h) => [
          h,
          h === 'bare' ? nothing : path.join(FLEET, h),
          h === HOSTS[0] ? 'loaded' : 'absent from last input',
          h === 'bare' ? [] : heldBy.get(h)![1],
          h === 'bare' ? 0 : heldBy.get(h)![2],
          h !== 'bare',
          true,
        ]),
    );
  });
});
