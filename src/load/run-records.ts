/**
 * `OUT/state/runs/`: one JSON file per run (core/records.ts RunRecord), which `raw_runs` and `load_runs`
 * read at query time. A run's file is written by rename, so a reader finds a whole record or none; a
 * shard load writes its file as it starts and again at its end, under the same name.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runsDir } from '../core/layout.js';
import type { RunRecord, UnfinishedRunRecord } from '../core/records.js';

/** Writes one run record as its own file, by rename (replacing the record of the same run). Returns the file. */
export async function recordRun(outDir: string, record: RunRecord | UnfinishedRunRecord): Promise<string> {
  const dir = runsDir(outDir);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${record.started_at.replace(/[:.]/g, '-')}_${record.run_id}.json`);
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify(record)}\n`);
  await fs.rename(`${file}.tmp`, file);
  return file;
}

/**
 * Every run record of OUT, as written (fields of older versions missing). A file that is not a JSON
 * object is left out: records are written by rename, so only a hand-edited one is.
 */
export async function readRunRecords(outDir: string): Promise<Array<Partial<RunRecord | UnfinishedRunRecord>>> {
  const dir = runsDir(outDir);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const records: Array<Partial<RunRecord | UnfinishedRunRecord>> = [];
  for (const name of names) {
    const text = await fs.readFile(path.join(dir, name), 'utf8').catch(() => null);
    try {
      const record: unknown = JSON.parse(text ?? 'null');
      if (record !== null && typeof record === 'object' && !Array.isArray(record)) records.push(record);
    } catch {
      // not a record: left out
    }
  }
  return records;
}
