/**
 * One (host, store) partition: run the store's reader over every source of that host, batch the rows
 * into Arrow record batches, write them as Parquet parts into a private temporary folder, and swap the
 * folder in whole, so a failed or killed run never leaves half a partition. Each row's text and content
 * columns are redacted (pipeline/redact-row.ts) before it is batched, unless the load keeps secrets; the
 * hits go to `_secrets.jsonl`.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { READERS } from '../readers/index.js';
import { imagePath, parserRow, type Row, type Source, type StoreId } from '../readers/row.js';
import { rowsToRecordBatch } from './arrow-batch.js';
import type { DiscoveryProblem } from './discover.js';
import { fingerprint } from './fingerprint.js';
import { INVENTORY_FILE, partitionDir, SECRETS_FILE } from './layout.js';
import { recordBatchToParquet } from './parquet-file.js';
import { RowRedactor } from './redact-row.js';

/**
 * Rows per Parquet part, and text bytes (UTF-16 units) per part, whichever comes first. Each part's
 * texts are held about four times over at its flush (rows, Arrow buffers, IPC bytes, parquet-wasm's
 * memory, which never shrinks), in each of the two workers: at 2 Mi characters instead of 4 the full
 * bench load peaked at 376-388 MB instead of 401 MB (3 runs against 1), in the same wall time.
 */
export const BATCH_ROWS = 50_000;
export const BATCH_TEXT_CHARS = 2 * 1024 * 1024;

/** One evidence file of a partition as the `files` table lists it. */
export interface FileRecord {
  host: string;
  store: StoreId;
  home: string;
  client: string;
  source_file: string;
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
  rows: number;
  errors: number;
  first_error: string | null;
}

export interface PartitionResult {
  host: string;
  store: StoreId;
  rows: number;
  errors: number;
  /** Secrets redacted from the partition's rows (0 with keepSecrets). */
  secrets: number;
  files: FileRecord[];
}

export interface PartitionOptions {
  /** Store texts as found, secrets included: no redaction and no `_secrets.jsonl` (`--keep-secrets`). */
  keepSecrets?: boolean;
}

export type { SecretRecord } from './redact-row.js';
export { INVENTORY_FILE, partitionDir, SECRETS_FILE } from './layout.js';

/** Rows of one source, with a reader failure turned into a `parser:` row instead of an abort. */
async function* rowsOf(source: Source): AsyncGenerator<Row> {
  try {
    yield* READERS[source.store](source);
  } catch (err) {
    yield parserRow(source, source.root, null, `reader failed: ${(err as Error).message}`);
  }
}

/** Reads every source of one (host, store) and writes the partition; returns what it read. */
export async function writePartition(
  outDir: string,
  host: string,
  store: StoreId,
  sources: Source[],
  problems: DiscoveryProblem[],
  options: PartitionOptions = {},
): Promise<PartitionResult> {
  const finalDir = partitionDir(outDir, host, store);
  const tmpDir = path.join(outDir, 'parquet', '.tmp', `${encodeURIComponent(host)}__${store}.${process.pid}.${randomBytes(4).toString('hex')}`);
  await fs.mkdir(tmpDir, { recursive: true });
  const tally = new Map<string, FileRecord>();
  const fileRecord = (source: Source, file: string): FileRecord => {
    const key = imagePath(source, file);
    let rec = tally.get(key);
    if (!rec) {
      rec = { host, store, home: source.home, client: source.client, source_file: key, size: null, mtime_ms: null, sha256: null, rows: 0, errors: 0, first_error: null };
      tally.set(key, rec);
    }
    return rec;
  };
  let batch: Row[] = [];
  let batchChars = 0;
  let part = 0;
  let rows = 0;
  let errors = 0;
  let secrets = 0;
  /** SecretRecord lines not yet appended to the secrets file (written with each part). */
  let secretLines: string[] = [];
  const secretsFile = path.join(tmpDir, SECRETS_FILE);
  const redactor = options.keepSecrets ? null : new RowRedactor();
  const flush = async () => {
    if (secretLines.length > 0) {
      await fs.appendFile(secretsFile, secretLines.join(''));
      secretLines = [];
    }
    if (batch.length === 0) return;
    const bytes = recordBatchToParquet(rowsToRecordBatch(batch));
    await fs.writeFile(path.join(tmpDir, `part-${String(part).padStart(5, '0')}.parquet`), bytes);
    part += 1;
    batch = [];
    batchChars = 0;
  };
  const take = async (source: Source, file: string, row: Row) => {
    if (redactor) secrets += redactor.redactRow(row, secretLines);
    const rec = fileRecord(source, file);
    rec.rows += 1;
    if (row.kind === 'parser') {
      rec.errors += 1;
      errors += 1;
      rec.first_error ??= row.text;
    }
    rows += 1;
    batch.push(row);
    batchChars += row.text?.length ?? 0;
    if (batch.length >= BATCH_ROWS || batchChars >= BATCH_TEXT_CHARS) await flush();
  };
  const byRel = new Map<string, string>();
  for (const source of sources) {
    for (const file of source.files) {
      fileRecord(source, file);
      byRel.set(imagePath(source, file), file);
    }
    for await (const row of rowsOf(source)) {
      const abs = byRel.get(row.source_file) ?? path.join(source.imageRoot, row.source_file);
      await take(source, abs, row);
    }
  }
  for (const problem of problems) {
    // discovery gives every partition with problems a source (pipeline/load.ts groupByPartition)
    const source = sources.find((s) => problem.file.startsWith(s.root)) ?? sources[0];
    if (!source) throw new Error(`partition ${host}/${store}: a discovery problem without a source: ${problem.file}`);
    await take(source, problem.file, parserRow(source, problem.file, null, problem.message));
  }
  await flush();
  const files = [...tally.values()].sort((a, b) => (a.source_file < b.source_file ? -1 : 1));
  for (const rec of files) {
    const abs = byRel.get(rec.source_file);
    if (abs) Object.assign(rec, await fingerprint(abs));
  }
  await fs.writeFile(path.join(tmpDir, INVENTORY_FILE), files.map((f) => JSON.stringify(f)).join('\n') + (files.length ? '\n' : ''));
  await swapIn(tmpDir, finalDir);
  return { host, store, rows, errors, secrets, files };
}

/** Replaces `finalDir` by `tmpDir` with renames only; the old folder is removed after the swap. */
export async function swapIn(tmpDir: string, finalDir: string): Promise<void> {
  await fs.mkdir(path.dirname(finalDir), { recursive: true });
  const old = `${tmpDir}.old`;
  const had = await fs.rename(finalDir, old).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return false;
    throw err;
  });
  await fs.rename(tmpDir, finalDir);
  if (had) await fs.rm(old, { recursive: true, force: true });
}
