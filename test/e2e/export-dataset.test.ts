/**
 * `clinetrail export --format parquet-dataset` (issue 28.7): the whole selection in a folder of parts of a
 * size, for engines that pay per file. On the demo fleet the parts hold exactly the events view's rows,
 * in its order (host, then time), row_id as its text and timestamp_utc as Parquet's UTC microseconds; on a
 * generated selection large enough for many parts, each part but the last holds at least --part-size and
 * the parts, read in name order, give the selection's order. `--force` replaces a folder of clinetrail's
 * parts and nothing else. pandas, pyarrow and polars open the folder in `make interop`
 * (interop/check_exports.py); DuckDB opens it here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, type CliRun, runCli, snapshotTree, workDir } from '../hostile/harness.js';

const work = workDir('export-dataset');
const out = path.join(work, 'out');
const dest = path.join(work, 'exports');

beforeAll(async () => {
  assertBuilt();
  fs.mkdirSync(dest);
  const load = await runCli(['load', '--fleet', path.join(REPO, 'fixtures', 'fleet'), '--out', out, '--quiet']);
  if (load.code !== 0) throw new Error(`load failed (${load.code}): ${load.stderr}`);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Rows of a query on the warehouse that may read the exports' folder. */
const sql = async (text: string) => (await queryWarehouse(out, text, { allowRead: [dest] })).rows;

const exportDataset = (to: string, ...extra: string[]): Promise<CliRun> =>
  runCli(['export', '--out', out, '--format', 'parquet-dataset', '--to', to, ...extra]);

/** The parts of a dataset folder in name order, and their sizes. */
function parts(dir: string): { name: string; size: number }[] {
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => ({ name, size: fs.statSync(path.join(dir, name)).size }));
}

describe('export --format parquet-dataset', () => {
  it('writes the events view in its order, every column as the warehouse holds it, row_id as text', async () => {
    const dir = path.join(dest, 'events');
    const r = await exportDataset(dir);
    expect(r.code, r.stderr).toBe(0);
    const [[total]] = await sql('select count(*)::INTEGER from events');
    expect(r.stderr).toContain(`${total} row(s) written (parquet-dataset, 1 part(s))`);
    expect(parts(dir).map((p) => p.name)).toEqual(['part-00000.parquet']);
    const back = `(select * replace (row_id::uuid as row_id) from read_parquet('${dir}/*.parquet'))`;
    const [[missing, extra]] = await sql(
      `select (select count(*) from (select * from events except all select * from ${back}))::INTEGER,
        (select count(*) from (select * from ${back} except all select * from events))::INTEGER`,
    );
    expect([missing, extra]).toEqual([0, 0]);
    // the order of the file is the events view's: by host, then time
    const inFile = (await sql(`select row_id::varchar from read_parquet('${dir}/*.parquet')`)).map((r) => r[0]);
    const inView = (await sql('select row_id::varchar from events')).map((r) => r[0]);
    expect(inFile).toEqual(inView);
    // row_id a UTF8 text, as every reader keeps it; the time INT64 microseconds adjusted to UTC
    const schema = await sql(
      `select name, type, converted_type, logical_type::varchar from parquet_schema('${dir}/part-00000.parquet')
       where name in ('row_id', 'timestamp_utc') order by name`,
    );
    expect(schema.map((r) => r.slice(0, 3))).toEqual([
      ['row_id', 'BYTE_ARRAY', 'UTF8'],
      ['timestamp_utc', 'INT64', 'TIMESTAMP_MICROS'],
    ]);
    expect(String(schema[1][3])).toMatch(/isAdjustedToUTC=1, unit=TimeUnit\(MILLIS=<null>, MICROS=MicroSeconds\(\)/);
  });

  it('closes each part at --part-size: every part but the last holds at least that, in the selection order', async () => {
    const dir = path.join(dest, 'sized');
    const rows = 200_000;
    const selection = `select i, md5(i::varchar) || md5((i * 7)::varchar) as t from range(${rows}) r(i) order by i desc`;
    const r = await exportDataset(dir, '--part-size', '256KB', '--sql', selection);
    expect(r.code, r.stderr).toBe(0);
    const written = parts(dir);
    expect(written.length).toBeGreaterThan(3);
    expect(written.map((p) => p.name)).toEqual(written.map((_, i) => `part-${String(i).padStart(5, '0')}.parquet`));
    for (const p of written.slice(0, -1)) expect(p.size, p.name).toBeGreaterThanOrEqual(256 * 1024);
    // each part's own range, and the parts in name order, follow the selection's order (i descending)
    const ranges = await sql(
      `select filename, max(i)::INTEGER, min(i)::INTEGER, count(*)::INTEGER
       from read_parquet('${dir}/*.parquet', filename = true) group by filename order by filename`,
    );
    expect(ranges.reduce((n, [, , , c]) => n + Number(c), 0)).toBe(rows);
    let next = rows - 1;
    for (const [file, hi, lo, count] of ranges) {
      expect([hi, lo], String(file)).toEqual([next, next - Number(count) + 1]);
      next = Number(lo) - 1;
    }
    expect(r.stderr).toContain(`${rows} row(s) written (parquet-dataset, ${written.length} part(s))`);
  });

  it('refuses a --part-size out of range, or without parquet-dataset, with exit 2', async () => {
    for (const [args, message] of [
      [['--format', 'parquet-dataset', '--part-size', '12'], /--part-size wants a size from 1KB to 1024GB/],
      [['--format', 'parquet-dataset', '--part-size', 'big'], /--part-size wants a size/],
      [['--format', 'parquet', '--part-size', '1MB'], /--part-size is for --format parquet-dataset, not parquet/],
    ] as const) {
      const r = await runCli(['export', '--out', out, '--to', path.join(dest, 'never'), ...args]);
      expect([r.code, r.stderr.trimEnd().split('\n').length], r.stderr).toEqual([2, 1]);
      expect(r.stderr).toMatch(message);
    }
    expect(fs.existsSync(path.join(dest, 'never'))).toBe(false);
  });

  it('--force replaces a folder of its own parts, never a folder of anything else', async () => {
    const dir = path.join(dest, 'again');
    expect((await exportDataset(dir, '--sql', 'select 1 as a')).code).toBe(0);
    const exists = await exportDataset(dir, '--sql', 'select 2 as a');
    expect([exists.code, exists.stderr]).toEqual([
      2,
      `clinetrail: export: --to ${dir} exists (--force replaces a folder clinetrail wrote)\n`,
    ]);
    const replaced = await exportDataset(dir, '--force', '--sql', 'select 2 as a');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await sql(`select a from read_parquet('${dir}/*.parquet')`)).toEqual([[2]]);

    // a folder with a file of the user's, or a Parquet file clinetrail did not write: untouched
    const mine = path.join(dest, 'mine');
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, 'notes.txt'), 'keep');
    const theirs = path.join(dest, 'theirs');
    fs.mkdirSync(theirs);
    fs.copyFileSync(path.join(dir, 'part-00000.parquet'), path.join(theirs, 'part-00001.parquet'));
    fs.writeFileSync(path.join(theirs, 'part-00000.parquet'), 'PAR1 not really');
    const file = path.join(dest, 'a-file');
    fs.writeFileSync(file, 'keep');
    const before = snapshotTree(dest);
    for (const [to, why] of [
      [
        mine,
        /is a folder clinetrail did not write \(it holds notes\.txt, which is no part-NNNNN\.parquet\); nothing was replaced/,
      ],
      [theirs, /is a folder clinetrail did not write \(part-00000\.parquet is no part clinetrail wrote\)/],
      [file, /is a file; this format writes a folder/],
      [path.join(out, 'parquet'), /is inside the warehouse/],
    ] as const) {
      const r = await exportDataset(to, '--force', '--sql', 'select 3 as a');
      expect([r.code, r.stderr.trimEnd().split('\n').length], r.stderr).toEqual([2, 1]);
      expect(r.stderr).toMatch(why);
    }
    expect(snapshotTree(dest)).toEqual(before);
    expect(fs.readdirSync(dest).filter((n) => n.startsWith('.clinetrail-export-'))).toEqual([]);
  });
});
