/**
 * One (host, store) partition: run the store's reader over every source of that host, batch the rows
 * into Arrow record batches, and write them as Parquet parts of a new generation, staged in a private
 * temporary folder and committed whole (core/manifest.ts), so a failed or killed run never leaves
 * half a partition. Each row's text and content columns are redacted (write/redact-row.ts) before it
 * is batched, unless the load keeps secrets; the hits go to the generation's `_secrets.<gen>.jsonl`.
 *
 * Each row is stamped with `file_row`, its position among the rows written for its source file (the
 * order the reader yielded them), so (host, store, source_file, file_row) names one row of the
 * warehouse, unique and the same for the same evidence and code (sql/01_row_macros.sql `row_id_of`).
 *
 * Every evidence file is fingerprinted before it is read and stamped again after: a file that changed
 * meanwhile makes the partition be read again (up to READ_ATTEMPTS times), so the inventory and the
 * rows describe the same bytes; a file that changes on every attempt is kept with a `parser:` row and
 * left for the next load to read again.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { READERS } from '../readers/registry.js';
import { rethrowOwnFault } from '../core/own-fault.js';
import type { FileRecord } from '../core/records.js';
import { testStop } from '../core/test-stops.js';
import { imagePath, type Row, type Source, type StoreId } from '../core/row.js';
import { parserRow } from '../readers/common/rows.js';
import { rowsToRecordBatch } from '../write/arrow-batch.js';
import type { DiscoveryProblem } from '../discover/discover.js';
import { fingerprint, stampOf } from '../evidence/fingerprint.js';
import { inventoryFileName, partFileName, partitionDir, secretsFileName, writeStagingDirOf } from '../core/layout.js';
import {
  commitGeneration,
  describeFile,
  describeWritten,
  newGeneration,
  sha256Text,
  type GenerationFile,
  type PartitionManifest,
} from '../core/manifest.js';
import { PartWriter } from '../write/parquet-file.js';
import { RowRedactor } from '../write/redact-row.js';
import { inputSignature, inputStatOf, nonFileInputs, writerVersion, type InputStat, type WriterVersion } from './state.js';

/**
 * Rows per Arrow batch handed to the Parquet writer, and text bytes (UTF-16 units) per batch,
 * whichever comes first. Each batch's texts are held about four times over at its flush (rows, Arrow
 * buffers, IPC bytes, parquet-wasm's memory, which never shrinks), in each of the two workers: 2 Mi
 * characters instead of 4 lowered the full bench load's peak in the same wall time (docs/BENCHMARKS.md "Behind the code").
 */
export const BATCH_ROWS = 50_000;
export const BATCH_TEXT_CHARS = 2 * 1024 * 1024;

/**
 * A part is closed, and the next batch starts a new one, once its flushed row groups reach this many
 * bytes: parts of tens of MB for Spark, Trino and Athena rather than one small file per batch. Memory
 * does not grow with it: the writer holds one row group (write/parquet-file.ts ROW_GROUP_BYTES).
 */
export const PART_BYTES = 64 * 1024 * 1024;

/** Reads of a partition whose files keep changing under it, before it is kept as last read. */
export const READ_ATTEMPTS = 3;

/** One evidence file of a partition as the `files` table lists it. */

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
  /** Store texts as found, secrets included: no redaction and no secrets file (`--keep-secrets`). */
  keepSecrets?: boolean;
  /** What the manifest records of the writing code (computed once by the load; here when absent). */
  version?: WriterVersion;
}

export type { FileRecord } from '../core/records.js';
export { partitionDir } from '../core/layout.js';

/** Rows of one source, with a reader failure turned into a `parser:` row instead of an abort. */
async function* rowsOf(source: Source): AsyncGenerator<Row> {
  try {
    yield* READERS[source.store](source);
  } catch (err) {
    rethrowOwnFault(err); // clinetrail's own fault (core/own-fault.ts): the load fails, no partition is committed
    yield parserRow(source, source.root, null, `reader failed: ${(err as Error).message}`);
  }
}

/** What one read of a partition staged: its counts and files, and the evidence files that changed meanwhile. */
interface StagedGeneration extends PartitionResult {
  parts: GenerationFile[];
  secretsFile: string | null;
  inventoryFile: string;
  inputs: InputStat[];
  changed: Set<string>;
}

/** Reads every source of one (host, store) and commits the partition; returns what it read. */
export async function writePartition(
  outDir: string,
  host: string,
  store: StoreId,
  sources: Source[],
  problems: DiscoveryProblem[],
  options: PartitionOptions = {},
): Promise<PartitionResult> {
  const version = options.version ?? (await writerVersion(options.keepSecrets === true));
  for (let attempt = 1; ; attempt++) {
    const gen = newGeneration();
    const staging = writeStagingDirOf(outDir, host, store, gen);
    await fs.mkdir(staging, { recursive: true });
    const last = attempt === READ_ATTEMPTS;
    const staged = await stageGeneration(staging, gen, host, store, sources, problems, options.keepSecrets === true, last);
    if (staged.changed.size > 0 && !last) {
      await fs.rm(staging, { recursive: true, force: true });
      continue;
    }
    const manifest: PartitionManifest = {
      format: 1,
      host,
      store,
      generation: gen,
      written_at: new Date().toISOString(),
      ...version,
      inputs_sha256: sha256Text(inputSignature(staged.inputs)),
      rows: staged.rows,
      parser_errors: staged.errors,
      secrets: staged.secrets,
      parts: staged.parts,
      inventory: describeFile(staging, staged.inventoryFile),
      secrets_file: staged.secretsFile === null ? null : describeFile(staging, staged.secretsFile),
    };
    testStop('partition-staged');
    await commitGeneration(staging, partitionDir(outDir, host, store), manifest);
    return { host, store, rows: staged.rows, errors: staged.errors, secrets: staged.secrets, files: staged.files };
  }
}

/**
 * One read of every source of the partition into generation `gen` in `staging`. With `last`, a file that
 * changed while it was read gets a `parser:` row and an input entry that no stat matches, so the next
 * load reads it again.
 */
async function stageGeneration(
  staging: string,
  gen: string,
  host: string,
  store: StoreId,
  sources: Source[],
  problems: DiscoveryProblem[],
  keepSecrets: boolean,
  last: boolean,
): Promise<StagedGeneration> {
  const tally = new Map<string, FileRecord>();
  const fileRecord = (source: Source, file: string): FileRecord => {
    const key = imagePath(source, file);
    let rec = tally.get(key);
    if (!rec) {
      rec = {
        host,
        store,
        home: source.home,
        user: source.user,
        client: source.client,
        source_file: key,
        size: null,
        mtime_ms: null,
        sha256: null,
        rows: 0,
        errors: 0,
        first_error: null,
        agents: [],
        archive: source.archive?.path ?? null,
        archive_member: source.archive?.members[key] ?? null,
      };
      tally.set(key, rec);
    }
    return rec;
  };
  let batch: Row[] = [];
  let batchChars = 0;
  const parts: GenerationFile[] = [];
  let rows = 0;
  let errors = 0;
  let secrets = 0;
  /** SecretRecord lines not yet appended to the secrets file (written with each part). */
  let secretLines: string[] = [];
  let secretsFile: string | null = null;
  const redactor = keepSecrets ? null : new RowRedactor();
  /** The part being written, and its name; null between parts. */
  let part = null as { writer: PartWriter; name: string } | null; // `as`: closures assign it
  const closePart = async () => {
    if (part === null) return;
    const written = await part.writer.close();
    // described from the bytes hashed as they were written, not read back
    parts.push(describeWritten(staging, part.name, written.sha256));
    part = null;
  };
  const flush = async () => {
    if (secretLines.length > 0) {
      secretsFile ??= secretsFileName(gen);
      await fs.appendFile(path.join(staging, secretsFile), secretLines.join(''));
      secretLines = [];
    }
    if (batch.length === 0) return;
    if (part === null) {
      const name = partFileName(gen, parts.length);
      part = { writer: new PartWriter(path.join(staging, name)), name };
    }
    await part.writer.write(rowsToRecordBatch(batch));
    batch = [];
    batchChars = 0;
    if (part.writer.bytesWritten >= PART_BYTES) await closePart();
  };
  /** Rows taken so far per source_file: each row's `file_row`, which with host, store and source_file names it. */
  const rowsOfFile = new Map<string, number>();
  const take = async (source: Source, file: string, row: Row) => {
    const fileRow = (rowsOfFile.get(row.source_file) ?? 0) + 1;
    rowsOfFile.set(row.source_file, fileRow);
    row.file_row = fileRow;
    if (redactor) secrets += redactor.redactRow(row, secretLines);
    const rec = fileRecord(source, file);
    rec.rows += 1;
    if (row.agent !== null && !rec.agents.includes(row.agent)) rec.agents = [...rec.agents, row.agent].sort();
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
  const stamps = new Map<string, string | null>();
  const inputs: InputStat[] = [];
  let changed = new Set<string>();
  try {
    for (const source of sources) {
      // fingerprinted before the reader opens them: the inventory describes the bytes the rows come from
      for (const file of source.files) {
        const { stamp, ...print } = await fingerprint(file);
        Object.assign(fileRecord(source, file), print);
        byRel.set(imagePath(source, file), file);
        stamps.set(file, stamp);
      }
      for await (const row of rowsOf(source)) {
        const abs = byRel.get(row.source_file) ?? path.join(source.imageRoot, row.source_file);
        await take(source, abs, row);
      }
    }
    for (const problem of problems) {
      // discovery gives every partition with problems a source (load/run.ts groupByPartition)
      const source = sources.find((s) => problem.file.startsWith(s.root)) ?? sources[0];
      if (!source) throw new Error(`partition ${host}/${store}: a discovery problem without a source: ${problem.file}`);
      await take(source, problem.file, parserRow(source, problem.file, null, problem.message));
    }
    changed = new Set([...stamps].filter(([file, stamp]) => stampOf(file) !== stamp).map(([file]) => file));
    for (const source of sources) {
      for (const file of source.files) {
        const rec = fileRecord(source, file);
        const moved = changed.has(file);
        // a member of an archive counts with the archive's size and mtime (load/state.ts inputStatOf)
        const counted = source.archive ? inputStatOf(source, file) : rec;
        inputs.push({
          source_file: rec.source_file,
          size: moved ? null : counted.size,
          mtime_ms: moved ? null : counted.mtime_ms,
        });
        if (moved && last) {
          await take(
            source,
            file,
            parserRow(
              source,
              file,
              null,
              `changed while being read, ${READ_ATTEMPTS} times; its rows may mix two versions of the file, and the next load reads it again`,
            ),
          );
        }
      }
    }
    inputs.push(...nonFileInputs(sources, problems));
    await flush();
    await closePart();
  } catch (err) {
    part?.writer.abort(); // the part is staged only: its file goes with the staging folder
    throw err;
  }
  const files = [...tally.values()].sort((a, b) => (a.source_file < b.source_file ? -1 : 1));
  const inventoryFile = inventoryFileName(gen);
  await fs.writeFile(
    path.join(staging, inventoryFile),
    files.map((f) => JSON.stringify(f)).join('\n') + (files.length ? '\n' : ''),
  );
  return { host, store, rows, errors, secrets, files, parts, secretsFile, inventoryFile, inputs, changed };
}
