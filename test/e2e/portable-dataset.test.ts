/**
 * OUT/parquet/events as a dataset other engines open with their defaults (core/layout.ts): only Parquet
 * files under it, `<host>/<store>` folders that are no hive keys (a host named 0042 stays the text
 * 0042 even where DuckDB's hive auto-detection is on), timestamps stored as INT64 microseconds adjusted
 * to UTC, and parts of tens of MB made of several row groups. The Python engines are checked by
 * `make interop` (interop/check.py), which needs pip; these checks need only DuckDB.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDir, hostDirName, oldLayoutError, partitionDir, partsDirOf } from '../../src/core/layout.js';
import { readManifest } from '../../src/core/manifest.js';
import { PART_BYTES } from '../../src/load/partition.js';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { ROW_GROUP_BYTES } from '../../src/write/parquet-file.js';
import { REPO } from '../helpers/source.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-dataset-'));
const demoOut = path.join(work, 'demo-out');
let db: DuckDBInstance;
let conn: DuckDBConnection;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function rows(sql: string): Promise<unknown[][]> {
  return (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

beforeAll(async () => {
  await runLoad({ fleet: path.join(REPO, 'fixtures', 'fleet'), out: demoOut });
  db = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  conn = await db.connect();
});

afterAll(() => {
  conn?.closeSync();
  rmSync(work, { recursive: true, force: true });
});

describe('host folder names', () => {
  it('are no hive keys and no names pyarrow skips, and give the host back', () => {
    const cases: Array<[string, string]> = [
      ['0042', '0042'],
      ['host=web', 'host%3Dweb'],
      ['a/b', 'a%2Fb'],
      ['_build', '%5Fbuild'],
      ['.hidden', '%2Ehidden'],
      ['..', '%2E.'],
      ['WIN-ALICE01', 'WIN-ALICE01'],
    ];
    for (const [host, folder] of cases) {
      expect(hostDirName(host)).toBe(folder);
      expect(decodeURIComponent(path.basename(path.dirname(partitionDir('/out', host, 'cline-tasks'))))).toBe(host);
    }
  });

  it('are cut to 200 characters, never inside an escape, with a hash that keeps hosts apart', () => {
    const cjk = '漢'.repeat(30); // 90 bytes, 270 characters encoded
    const long = 'H'.repeat(5000);
    const folders = [cjk, `${cjk}x`, long, `${long}x`].map(hostDirName);
    expect(new Set(folders).size).toBe(4);
    for (const f of folders) {
      expect(f.length).toBeLessThanOrEqual(200);
      expect(f).toMatch(/^[^+]*\+[0-9a-f]{16}$/);
      expect(() => decodeURIComponent(f.slice(0, f.indexOf('+')))).not.toThrow();
    }
    expect(folders[0].startsWith(encodeURIComponent('漢'.repeat(20)))).toBe(true);
  });
});

describe('the demo fleet as a dataset', () => {
  it('keeps no file but Parquet parts under parquet/events, even after a second load', async () => {
    await runLoad({ fleet: path.join(REPO, 'fixtures', 'fleet'), out: demoOut });
    const files = filesUnder(eventsDir(demoOut));
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((f) => !/^[^/]+\/[^/]+\/part-[0-9a-z]+-\d{5}\.parquet$/.test(f))).toEqual([]);
    // the side files are under records/, beside the manifests
    const records = filesUnder(path.join(demoOut, 'records'));
    expect(records.some((f) => f.endsWith('/_partition.json'))).toBe(true);
    expect(records.filter((f) => f.endsWith('.parquet'))).toEqual([]);
  });

  it('keeps host 0042 as text in the files read with DuckDB hive auto-detection on, and in the warehouse', async () => {
    expect(readdirSync(eventsDir(demoOut))).toContain('0042');
    const glob = `${eventsDir(demoOut)}/**/*.parquet`;
    expect(await rows(`select distinct typeof(host), host from read_parquet('${glob}') where host like '%42'`)).toEqual([
      ['VARCHAR', '0042'],
    ]);
    const all = await rows(`select count(*)::INTEGER from read_parquet('${glob}')`);
    const wh = await queryWarehouse(demoOut, `select count(*) from raw_events`);
    expect(String(all[0][0])).toBe(String(wh.rows[0][0]));
    const whHost = await queryWarehouse(demoOut, `select distinct host from raw_events where host like '%42'`);
    expect(whHost.rows).toEqual([['0042']]);
  });

  it('stores timestamp_utc as INT64 microseconds adjusted to UTC, and the instants the warehouse shows', async () => {
    const part = path.join(eventsDir(demoOut), '0042', 'sdk-sessions');
    const file = path.join(part, readdirSync(part)[0]);
    const [[physical, logical]] = await rows(
      `select type, logical_type from parquet_schema('${file}') where name = 'timestamp_utc'`,
    );
    expect(physical).toBe('INT64');
    expect(String(logical)).toMatch(/isAdjustedToUTC=1/);
    expect(String(logical)).toMatch(/MICROS/);
    // the instants in the file are those of the warehouse, as epoch microseconds
    const fromFile = await rows(
      `select source_file, file_row, epoch_us(timestamp_utc)::VARCHAR from read_parquet('${file}') where timestamp_utc is not null order by all limit 5`,
    );
    expect(fromFile.length).toBeGreaterThan(0);
    for (const [sourceFile, fileRow, us] of fromFile) {
      const wh = await queryWarehouse(
        demoOut,
        `select epoch_ms(timestamp_utc) * 1000 from raw_events where host = '0042' and store = 'sdk-sessions' and source_file = '${sourceFile}' and file_row = ${fileRow}`,
      );
      expect(String(wh.rows[0][0])).toBe(String(us));
    }
  });
});

describe('part sizing', () => {
  // random hex texts, which snappy barely shrinks: the input's text bytes are about the parts' bytes
  const MESSAGES = 34_000;
  const TEXT_CHARS = 3_000;
  const fleet = path.join(work, 'big-fleet');
  const out = path.join(work, 'big-out');

  beforeAll(async () => {
    const task = path.join(fleet, 'h-big', 'home', 'u', '.cline', 'data', 'tasks', '1762000000000');
    mkdirSync(task, { recursive: true });
    const lines: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const text = randomBytes(TEXT_CHARS / 2).toString('hex');
      lines.push(JSON.stringify({ ts: 1762000000000 + i, type: 'say', say: i === 0 ? 'task' : 'text', text }));
    }
    writeFileSync(path.join(task, 'ui_messages.json'), `[${lines.join(',')}]`);
    await runLoad({ fleet, out });
  }, 300_000);

  it('writes parts of about PART_BYTES, each of several row groups, holding every row', async () => {
    const dir = partitionDir(out, 'h-big', 'cline-tasks');
    const manifest = readManifest(dir)!;
    const parts = manifest.parts.map((p) => path.join(partsDirOf(dir), p.name));
    const inputBytes = MESSAGES * TEXT_CHARS;
    // a part closes at the first row group that takes it to PART_BYTES: 102 MB of input make two parts,
    // not 49 of 2 Mi characters each
    expect(inputBytes).toBeGreaterThan(PART_BYTES + 2 * ROW_GROUP_BYTES);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const p of parts.slice(0, -1)) expect(statSync(p).size).toBeGreaterThanOrEqual(PART_BYTES);
    for (const p of parts) expect(statSync(p).size).toBeLessThan(PART_BYTES + 2 * ROW_GROUP_BYTES);
    const meta = await rows(
      `select file_name, count(*)::INTEGER, sum(row_group_num_rows)::INTEGER from (select distinct file_name, row_group_id, row_group_num_rows from parquet_metadata([${parts.map((p) => `'${p}'`).join(', ')}])) group by all`,
    );
    expect(meta.filter(([name]) => String(name) !== parts.at(-1)).every(([, groups]) => Number(groups) >= 2)).toBe(true);
    // every message of the input is one row, in the parts' footers and in the warehouse
    const inFiles = meta.reduce((n, [, , r]) => n + Number(r), 0);
    const wh = await queryWarehouse(out, `select count(*) from raw_events where host = 'h-big' and kind <> 'parser'`);
    expect(Number(wh.rows[0][0])).toBe(MESSAGES);
    expect(inFiles).toBe(manifest.rows);
  });
});

/** Moves a current-layout OUT back into the layout before the portable dataset: host=H/store=S folders holding parts, manifest and side files. */
function toOldLayout(out: string): void {
  const records = path.join(out, 'records');
  for (const hf of readdirSync(records)) {
    for (const store of readdirSync(path.join(records, hf))) {
      const recDir = path.join(records, hf, store);
      const old = path.join(eventsDir(out), `host=${encodeURIComponent(readManifest(recDir)!.host)}`, `store=${store}`);
      mkdirSync(old, { recursive: true });
      const parts = partsDirOf(recDir);
      for (const dir of [recDir, parts]) {
        for (const name of readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name))
          renameSync(path.join(dir, name), path.join(old, name));
      }
      rmSync(parts, { recursive: true, force: true });
    }
    rmSync(path.join(eventsDir(out), hf), { recursive: true, force: true });
  }
  rmSync(records, { recursive: true });
}

describe('an OUT of the layout before the portable dataset', () => {
  it('is moved to the current layout by the next load, hosts absent from its input included', async () => {
    const old = path.join(work, 'old-out');
    cpSync(demoOut, old, { recursive: true });
    toOldLayout(old);
    const perHost = `select host, store, count(*), count(distinct source_file) from raw_events group by all order by all`;
    const before = (await queryWarehouse(demoOut, perHost)).rows;
    const filesBefore = (await queryWarehouse(demoOut, 'select host, source_file, sha256 from files order by all')).rows;
    expect(readdirSync(eventsDir(old)).every((n) => n.startsWith('host='))).toBe(true);
    // query and export name what to do until a load has moved it
    expect(oldLayoutError(old)).toMatch(
      /holds the old parquet\/events\/host=H\/store=S layout; run clinetrail load with this --out once/,
    );

    // a load of one host only: the other two are kept (load/membership.ts), so they must be moved, not read again
    const events: string[] = [];
    await runLoad({
      hosts: [{ host: 'lnx-u01', root: path.join(REPO, 'fixtures', 'fleet', 'lnx-u01') }],
      out: old,
      onEvent: (e) => events.push(e.event),
    });
    expect(events).toContain('migrated');
    expect(oldLayoutError(old)).toBeNull();
    expect(readdirSync(eventsDir(old)).some((n) => n.startsWith('host='))).toBe(false);
    expect(filesUnder(eventsDir(old)).every((f) => /\/part-[^/]+\.parquet$/.test(f))).toBe(true);
    expect((await queryWarehouse(old, perHost)).rows).toEqual(before);
    expect((await queryWarehouse(old, 'select host, source_file, sha256 from files order by all')).rows).toEqual(filesBefore);
  });
});
