/**
 * Incremental nightly runs and the OUT lock, through runLoad on copies of reader fixtures. Each test
 * works on its own copy of the fleet and of a loaded OUT, so the tests run in any order.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../src/load/run.js';
import { acquireLock, LockHeldError } from '../../src/load/lock.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { fixture, REPO } from '../helpers/source.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-incr-'));
/** Three hosts, and an OUT that one load made of them: every test starts from its own copy of both. */
const baseFleet = path.join(work, 'base-fleet');
const baseOut = path.join(work, 'base-out');

/** Every Parquet part under OUT with its mtime: a rewritten partition gets new files. */
function parts(out: string): Record<string, number> {
  const found: Record<string, number> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.parquet')) found[path.relative(out, p)] = statSync(p).mtimeMs;
    }
  };
  walk(path.join(out, 'parquet', 'events'));
  return found;
}

const timeline = async (out: string) => (await queryWarehouse(out, 'select * from events')).rows;

/**
 * This test's own fleet (a copy of the base fleet) and, with `loaded`, its own OUT (a copy of the base
 * OUT). `cp -a` keeps the times to the nanosecond (fs.cp's preserveTimestamps rounds through a float and
 * can move an mtime back by a millisecond), so the copy's partitions are unchanged to the next load. The copied fleet.duckdb
 * still names the base OUT's files (absolute paths): query it only after a load that rebuilt it.
 */
function own(name: string, loaded: boolean): { fleet: string; out: string } {
  const fleet = path.join(work, name, 'fleet');
  const out = path.join(work, name, 'out');
  mkdirSync(path.join(work, name));
  execFileSync('cp', ['-a', baseFleet, fleet]);
  if (loaded) execFileSync('cp', ['-a', baseOut, out]);
  return { fleet, out };
}

beforeAll(async () => {
  cpSync(fixture('vscode-tasks', 'img'), path.join(baseFleet, 'WIN-1'), { recursive: true });
  cpSync(fixture('sdk-sessions', 'img'), path.join(baseFleet, 'lnx-2'), { recursive: true });
  cpSync(fixture('hooks-log', 'img'), path.join(baseFleet, 'lnx-3'), { recursive: true });
  // one partition per host: the sdk-sessions image's compaction sidecar would be an `unread` partition of its own
  rmSync(path.join(baseFleet, 'lnx-2', 'home/u/.cline/data/sessions/1760001000000_ent4z/1760001000000_ent4z.compaction.json'));
  expect(await runLoad({ fleet: baseFleet, out: baseOut })).toMatchObject({ hosts: 3, partitions_written: 3 });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('incremental loads', () => {
  it('reads everything on the first run, nothing on an unchanged second run, with identical results', async () => {
    const { fleet, out } = own('unchanged', false);
    const first = await runLoad({ fleet, out });
    expect(first).toMatchObject({ hosts: 3, partitions_written: 3, partitions_unchanged: 0, is_full_load: true });
    const before = parts(out);
    const rowsBefore = await timeline(out);
    const warehouseBefore = statSync(path.join(out, 'fleet.duckdb')).mtimeMs;
    const second = await runLoad({ fleet, out });
    expect(second).toMatchObject({ partitions_written: 0, partitions_unchanged: 3, rows_written: 0, is_full_load: false });
    expect(second.files_unchanged).toBe(first.files_read);
    expect(parts(out)).toEqual(before);
    expect(await timeline(out)).toEqual(rowsBefore);
    const runs = await queryWarehouse(out, 'select count(*) from load_runs');
    expect(runs.rows).toEqual([['2']]);
    expect(statSync(path.join(out, 'fleet.duckdb')).mtimeMs).toBe(warehouseBefore);
  });

  it('rebuilds the models when a killed run left partitions newer than fleet.duckdb', async () => {
    const { fleet, out } = own('stale', true);
    const warehouseBefore = statSync(path.join(out, 'fleet.duckdb')).mtimeMs;
    writeFileSync(path.join(out, 'state', 'models.stale'), '');
    // and the half-written record of that killed run, never renamed into place
    writeFileSync(path.join(out, 'state', 'runs', 'killed.json.tmp'), '{"run_id":"killed","hosts":');
    const run = await runLoad({ fleet, out });
    expect(run).toMatchObject({ partitions_written: 0, partitions_unchanged: 3 });
    expect(statSync(path.join(out, 'fleet.duckdb')).mtimeMs).toBeGreaterThan(warehouseBefore);
    expect(existsSync(path.join(out, 'state', 'models.stale'))).toBe(false);
    // the base load's record and this one's; the killed run's `.tmp` is not a run
    const runs = await queryWarehouse(out, 'select count(*) from load_runs');
    expect(runs.rows).toEqual([['2']]);
  });

  it('removes what no manifest names after a run that rebuilt the models, and lists no folder again while nothing changes', async () => {
    const { fleet, out } = own('retired', true);
    const marker = path.join(out, 'state', 'models.retired');
    expect(existsSync(marker), 'the base load deleted what no manifest names').toBe(true);
    const partsDir = path.dirname(Object.keys(parts(out)).map((p) => path.join(out, p))[0]);
    // an older generation left by a run killed after its rebuild, before its deletion: the rebuild
    // removed the marker, so the next run, which keeps fleet.duckdb, lists every folder
    const older = path.join(partsDir, 'part-older-00000.parquet');
    writeFileSync(older, 'PAR1');
    rmSync(marker);
    const warehouseBefore = statSync(path.join(out, 'fleet.duckdb')).mtimeMs;
    expect(await runLoad({ fleet, out })).toMatchObject({ partitions_written: 0, partitions_unchanged: 3 });
    expect(statSync(path.join(out, 'fleet.duckdb')).mtimeMs).toBe(warehouseBefore);
    expect(existsSync(older)).toBe(false);
    expect(existsSync(marker)).toBe(true);
    // with the marker, an unchanged run lists nothing: a file no load wrote is left where it is
    const planted = path.join(partsDir, 'part-planted-00000.parquet');
    writeFileSync(planted, 'PAR1');
    await runLoad({ fleet, out });
    expect(existsSync(planted)).toBe(true);
    // a run that rebuilds the models removes it
    writeFileSync(path.join(out, 'state', 'models.stale'), '');
    await runLoad({ fleet, out });
    expect(existsSync(planted)).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });

  it('re-reads only the partition whose file changed', async () => {
    const { fleet, out } = own('changed', true);
    const before = parts(out);
    const hooks = path.join(fleet, 'lnx-3', 'home', 'u', '.cline', 'data', 'logs', 'hooks.jsonl');
    appendFileSync(
      hooks,
      '{"ts":"2026-10-03T10:00:00.000Z","hookName":"agent_start","sessionContext":{"rootSessionId":"s-new"}}\n',
    );
    const run = await runLoad({ fleet, out });
    expect(run).toMatchObject({ partitions_written: 1, partitions_unchanged: 2 });
    const after = parts(out);
    const changed = Object.keys(after).filter((k) => before[k] !== after[k]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((k) => k.startsWith(path.join('parquet', 'events', 'lnx-3') + path.sep))).toBe(true);
    const rows = await queryWarehouse(out, "select count(*) from raw_events where session_id = 's-new'");
    expect(rows.rows).toEqual([['1']]);
  });

  it('treats a changed modification time as a change', async () => {
    const { fleet, out } = own('touched', true);
    const file = path.join(
      fleet,
      'WIN-1',
      'C',
      'Users',
      'alice',
      'AppData',
      'Roaming',
      'Code',
      'User',
      'globalStorage',
      'saoudrizwan.claude-dev',
      'state',
      'taskHistory.json',
    );
    utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const run = await runLoad({ fleet, out });
    expect(run).toMatchObject({ partitions_written: 1, partitions_unchanged: 2 });
  });

  it('with --prune, removes the partitions of a host that is gone, and --full reads everything again', async () => {
    const { fleet, out } = own('gone', true);
    rmSync(path.join(fleet, 'lnx-3'), { recursive: true });
    const run = await runLoad({ fleet, out, prune: true });
    expect(run).toMatchObject({ partitions_written: 0, partitions_unchanged: 2, partitions_removed: 1 });
    const hosts = await queryWarehouse(out, 'select distinct host from raw_events order by host');
    expect(hosts.rows).toEqual([['WIN-1'], ['lnx-2']]);
    const full = await runLoad({ fleet, out, full: true });
    expect(full).toMatchObject({ partitions_written: 2, partitions_unchanged: 0, is_full_load: true });
  });
});

describe('the OUT lock', () => {
  it('refuses a second load while a live process holds the lock, and runs once that process is gone', async () => {
    const { fleet, out: lockOut } = own('lock', false);
    // the built module (make test builds dist/ first): a plain node process cannot import TypeScript
    const lockModule = JSON.stringify(path.join(REPO, 'dist', 'src', 'load', 'lock.js'));
    // a process that takes the lock with the same code and holds it until killed
    const child = spawn(
      process.execPath,
      [
        '-e',
        `import(${lockModule}).then(({ acquireLock }) => acquireLock(${JSON.stringify(lockOut)})).then(() => { console.log('held'); setTimeout(() => {}, 60000); })`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
        child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
      });
      await expect(runLoad({ fleet, out: lockOut })).rejects.toThrow(LockHeldError);
      await expect(runLoad({ fleet, out: lockOut })).rejects.toThrow(new RegExp(`another load \\(pid ${child.pid} on `));
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((r) => child.once('exit', r));
    const run = await runLoad({ fleet, out: lockOut });
    expect(run.partitions_written).toBe(3);
    // released at the end of the load: taken again at once
    await (await acquireLock(lockOut))();
  });
});
