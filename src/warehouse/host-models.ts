/**
 * The model build as a map over hosts (docs/ARCHITECTURE.md "The models, host by host"): every rule of
 * the models is local to a host, so a batch of hosts is built alone, from its own partitions, in a DuckDB
 * of its own (bounded by its memory limit, spilling to a folder of its own under OUT/tmp), and each
 * per-host relation it makes is written as Parquet into each host's folder (core/model-layout.ts,
 * warehouse/per-host-copy.ts). A host whose partitions and models version are those of its commit record
 * is not built again. fleet.duckdb then only puts views over these files (warehouse/build.ts).
 *
 * A per-host relation is a table of the model files that the build keeps (not dropped), or one of
 * STORED_VIEWS, that names its host: by a `host` column, or by its first `*row_id` column (a row of
 * raw_events of that host). Parquet has no 128-bit integer (DuckDB writes HUGEINT and UHUGEINT as DOUBLE,
 * losing digits): such a column is stored as text and cast back by the view.
 */
import { createHash } from 'node:crypto';
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { fileDirOf, hostDirName, partitionDirs } from '../core/layout.js';
import { manifestFiles, newGeneration, readManifest } from '../core/manifest.js';
import {
  type HostModelsRecord,
  hostModelDir,
  type ModelSchema,
  modelFileName,
  modelSchemaFile,
  modelStagingDir,
  readModelSchema,
  readHostModelsRecord,
  writeHostModelsRecord,
} from '../core/model-layout.js';
import { openDuckDB } from './duckdb-open.js';
import { mergedGroups, type PartGroups, partGroups } from './part-schemas.js';
import {
  allModelStatements,
  outRelative,
  placeholders,
  readModelFile,
  runModels,
  setOutStatement,
  type SourceFiles,
} from './model-run.js';
import { columnsOf, storeViewRows, writePerHostRelations } from './per-host-copy.js';
import { sqlString } from './sql-literal.js';

/** One host's partitions: the files its models are built from. */
export interface HostSources {
  host: string;
  files: SourceFiles;
  /** SHA-256 of its partition manifests and of the size and mtime of their files: what its commit record must match. */
  sha256: string;
  /** Rows of its partitions, to size the batches. */
  rows: number;
  /** Bytes of its partitions' Parquet parts, as their manifests record them. */
  partBytes: number;
}

/** Every host with a committed partition, with its partitions' current files (relative to OUT), by host folder. */
export async function hostSources(outDir: string): Promise<HostSources[]> {
  const byHost = new Map<string, { files: SourceFiles; hash: ReturnType<typeof createHash>; rows: number; partBytes: number }>();
  for (const dir of await partitionDirs(outDir)) {
    const m = readManifest(dir);
    if (m === null) continue;
    let h = byHost.get(m.host);
    if (h === undefined) {
      h = { files: { parquet: [], inventory: [], secrets: [] }, hash: createHash('sha256'), rows: 0, partBytes: 0 };
      byHost.set(m.host, h);
    }
    // the files as they are now, not only as the manifest says: a model build follows any change of them
    const stats = manifestFiles(m).map((f) => statSync(path.join(fileDirOf(dir, f.name), f.name), { throwIfNoEntry: false }));
    h.hash.update(`${JSON.stringify(m)}\n${JSON.stringify(stats.map((st) => [st?.size, st?.mtimeMs]))}\n`);
    h.rows += m.rows;
    for (const f of m.parts) h.partBytes += f.size;
    h.files.parquet.push(...m.parts.map((f) => outRelative(outDir, path.join(fileDirOf(dir, f.name), f.name))));
    h.files.inventory.push(outRelative(outDir, path.join(dir, m.inventory.name)));
    if (m.secrets_file) h.files.secrets.push(outRelative(outDir, path.join(dir, m.secrets_file.name)));
  }
  return [...byHost.entries()]
    .map(([host, h]) => ({ host, files: h.files, sha256: h.hash.digest('hex'), rows: h.rows, partBytes: h.partBytes }))
    .sort((a, b) => (hostDirName(a.host) < hostDirName(b.host) ? -1 : 1));
}

/** Whether a host's models on disk are those of its partitions under this models version. */
export function hostModelsCurrent(outDir: string, h: HostSources, version: string): HostModelsRecord | null {
  const r = readHostModelsRecord(outDir, h.host);
  return r !== null && r.models_version === version && r.sources_sha256 === h.sha256 && r.event_parts !== undefined ? r : null;
}

/** What a batch of hosts holds at most: hosts, rows, and bytes of their Parquet parts (one host bigger than that is a batch alone). */
export interface BatchLimits {
  hosts: number;
  rows: number;
  partBytes: number;
}

/**
 * The batches of the model build. The bytes bound the batches of hosts with long texts: on the generated
 * fleet a batch of 200,000 rows (39 hosts, 66 MB of parts) peaked at 353-475 MB, one of 40 MB at 281-298 MB
 * (docs/BENCHMARKS.md, "The assembly binds on the first files"). But a load builds on what its partition
 * workers left: batches of 40 MB took its peak over 450 MB, those of 28 MB did not (docs/BENCHMARKS.md,
 * "The model batches of the 6.9 GB fleet"). A batch of 64 tiny hosts holds 4 MB.
 */
export const MODEL_BATCH: BatchLimits = { hosts: 64, rows: 200_000, partBytes: 28 * 1024 * 1024 };

/** The hosts in batches, in order: each as many hosts as fit `limits`. */
export function batches(hosts: HostSources[], limits: BatchLimits = MODEL_BATCH): HostSources[][] {
  const out: HostSources[][] = [];
  let current: HostSources[] = [];
  let rows = 0;
  let bytes = 0;
  for (const h of hosts) {
    const full = current.length >= limits.hosts || rows + h.rows > limits.rows || bytes + h.partBytes > limits.partBytes;
    if (current.length > 0 && full) {
      out.push(current);
      current = [];
      rows = 0;
      bytes = 0;
    }
    current.push(h);
    rows += h.rows;
    bytes += h.partBytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The sources of a batch together. */
export function together(batch: HostSources[]): SourceFiles {
  const files: SourceFiles = { parquet: [], inventory: [], secrets: [] };
  for (const h of batch) {
    files.parquet.push(...h.files.parquet);
    files.inventory.push(...h.files.inventory);
    files.secrets.push(...h.files.secrets);
  }
  for (const list of Object.values(files)) list.sort();
  return files;
}

/** The tables only the host build uses: those a model file drops once the tables after it are made. */
export async function buildOnlyTables(vars: Record<string, string>): Promise<Set<string>> {
  const statements = await allModelStatements(vars);
  return new Set(statements.filter((s) => s.kind === 'drop-table').map((s) => String(s.target)));
}

/**
 * Views of the model files whose rows the host build also stores, as it stores its tables: fleet.duckdb
 * and a hunt's batch then read them from one file per host. `int_timeline` (sql/25) is what events, the
 * tool calls and most hunts read; as a view over the partitions, each question evaluated the duplicate
 * rule's joins again, about ten scans of every part of the fleet, which a fleet of many small hosts did not
 * survive (docs/BENCHMARKS.md, "The timeline, stored per host"). It stays a view in the host build: as a
 * table there it would hold the batch's texts in memory.
 */
const STORED_VIEWS: readonly string[] = ['int_timeline'];

/** The relations of the model files a build keeps: tables created and dropped by none, and STORED_VIEWS. */
async function keptTables(vars: Record<string, string>): Promise<string[]> {
  const statements = await allModelStatements(vars);
  const dropped = await buildOnlyTables(vars);
  const created = statements
    .filter((s) => s.kind === 'create-table' && !dropped.has(String(s.target)))
    .map((s) => String(s.target));
  return [...new Set([...created, ...STORED_VIEWS])];
}

/** The per-host relations of the build on `conn` and their columns (see the head of this file). */
async function perHostSchema(conn: DuckDBConnection, tables: string[]): Promise<ModelSchema> {
  const schema: ModelSchema = {};
  for (const table of tables) {
    const columns = await columnsOf(conn, table);
    if (columns.some(([name]) => name === 'host' || name.endsWith('row_id'))) schema[table] = columns;
  }
  return schema;
}

/**
 * Parts of at most this many bytes in all are copied into one file before a batch's build (batchEvents);
 * bigger ones are read where they are. The copy's Parquet writer holds a row group of decoded rows: for a
 * batch of 200,000 rows of generated transcripts it took the load from 387 to 788 MB.
 */
const COPIED_PARTS_BYTES = 16 * 1024 * 1024;

/**
 * The batch's partitions copied into one Parquet file of its spill folder, read by raw_events in their
 * place: the models scan raw_events dozens of times, and each scan of the parts themselves opened every
 * part of the batch again (6 per tiny host), which cost most of a batch's time and memory when the parts
 * are many and small (docs/BENCHMARKS.md, "The load's own memory, host by host"). Its rows are those of
 * the parts, so is every model built from them: row_id is computed from a row's columns, never from where
 * it is read.
 */
async function batchEvents(conn: DuckDBConnection, tempDir: string, source: string): Promise<string> {
  // the macros that name OUT's files (out_files), which the model files define first
  await conn.run((await readModelFile('00_out_files.sql')).once);
  const file = path.join(tempDir, 'batch-events.parquet');
  await conn.run(`copy (select * from ${source}) to ${sqlString(file)} (format parquet)`);
  return `(select * from read_parquet(${sqlString(file)}, hive_partitioning = false))`;
}

/** Whether the model files run so far have created view `view`. */
async function viewExists(conn: DuckDBConnection, view: string): Promise<boolean> {
  const found = await conn.runAndReadAll(`select 1 from duckdb_views() where view_name = ${sqlString(view)} and not temporary`);
  return found.getRows().length > 0;
}

/** Writes the schema of this models version, once (every build of one version gives the same). */
async function writeSchema(outDir: string, version: string, schema: ModelSchema, gen: string): Promise<void> {
  const file = modelSchemaFile(outDir, version);
  await fs.mkdir(path.dirname(file), { recursive: true });
  // named by the generation, not the process id: shards on several machines may write it at once
  const tmp = `${file}.${gen}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(schema)}\n`);
  await fs.rename(tmp, file);
}

/**
 * Builds the models of one batch of hosts (none: only the schema of this version) and commits each
 * host's: its files renamed into its folders, then its record. Returns the schema.
 */
export async function buildHostBatch(outDir: string, batch: HostSources[], version: string): Promise<ModelSchema> {
  const gen = newGeneration();
  const staging = modelStagingDir(outDir, gen);
  // a folder of this build's own: the shards of a split build their hosts' models at once (load/run.ts)
  const tempDir = `${staging}-spill`;
  await fs.mkdir(tempDir, { recursive: true });
  const files = together(batch);
  const { instance, conn } = await openDuckDB(':memory:', { temp_directory: tempDir }, { footerCache: true });
  try {
    await conn.run(setOutStatement(outDir));
    const groups = await partGroups(conn, outDir, files.parquet);
    const vars = placeholders(outDir, { ...files, parquetGroups: mergedGroups([groups]) }, false);
    if (files.parquet.length > 0 && batch.reduce((n, h) => n + h.partBytes, 0) <= COPIED_PARTS_BYTES)
      vars.events_source = await batchEvents(conn, tempDir, vars.events_source);
    const stored = new Map<string, string | null>(STORED_VIEWS.map((v) => [v, null]));
    // a batch of several hosts evaluates each stored view once, as soon as it exists (see storeViewRows);
    // one host copies it straight (per-host-copy.ts), where a file first cost the big host 50-100 MB
    const storeViews = async () => {
      for (const [view, file] of stored)
        if (file === null && (await viewExists(conn, view))) stored.set(view, await storeViewRows(conn, view, tempDir));
    };
    await runModels(conn, vars, undefined, batch.length > 1 ? storeViews : undefined);
    const schema = await perHostSchema(conn, await keptTables(vars));
    await writeSchema(outDir, version, schema, gen);
    if (batch.length === 0) return schema;
    await fs.mkdir(staging, { recursive: true });
    const hosts = batch.map((h) => h.host);
    await writePerHostRelations(conn, schema, stored, hosts, { staging, tempDir });
    const groupOf = new Map(Object.entries(groups).flatMap(([hash, parts]) => parts.map((p) => [p, hash] as const)));
    for (const [ix, h] of batch.entries()) {
      const hostGroups: PartGroups = {};
      for (const part of h.files.parquet) (hostGroups[groupOf.get(part) ?? ''] ??= []).push(part);
      await commitHost(outDir, staging, schema, { ...h, groups: hostGroups, ix }, gen, version);
    }
    return schema;
  } finally {
    conn.closeSync();
    instance.closeSync();
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(tempDir, { recursive: true, force: true });
  }
}

/** What a map over hosts built. */
export interface HostModelsBuilt {
  /** The columns of every per-host relation of this models version. */
  schema: ModelSchema;
  /** The hosts whose models were built (their record was missing or not current). */
  built: string[];
}

/**
 * The map over hosts: builds, batch by batch, the models of every host of `hosts` whose commit record is
 * not that of its partitions under `version`. A shard load runs it for its own hosts; the fleet's build
 * for the hosts still missing (warehouse/build.ts).
 */
export async function buildHostModels(outDir: string, hosts: HostSources[], version: string): Promise<HostModelsBuilt> {
  const todo = hosts.filter((h) => hostModelsCurrent(outDir, h, version) === null);
  let schema = readModelSchema(outDir, version);
  for (const batch of batches(todo)) schema = await buildHostBatch(outDir, batch, version);
  schema ??= await buildHostBatch(outDir, [], version);
  return { schema, built: todo.map((h) => h.host) };
}

/** Moves one host's staged files into its folders and writes its record. */
async function commitHost(
  outDir: string,
  staging: string,
  schema: ModelSchema,
  h: HostSources & { groups: PartGroups; ix: number },
  gen: string,
  version: string,
): Promise<void> {
  const { ix } = h;
  const relations: Record<string, string[]> = {};
  for (const table of Object.keys(schema)) {
    const from = path.join(staging, table, `clinetrail_host_ix=${ix}`);
    const staged = (await fs.readdir(from).catch(() => [] as string[])).filter((n) => n.endsWith('.parquet')).sort();
    relations[table] = [];
    if (staged.length === 0) continue;
    const dir = hostModelDir(outDir, table, h.host);
    await fs.mkdir(dir, { recursive: true });
    for (const [n, name] of staged.entries()) {
      const final = modelFileName(table, gen, n);
      await fs.rename(path.join(from, name), path.join(dir, final));
      relations[table].push(final);
    }
  }
  await writeHostModelsRecord(outDir, {
    format: 1,
    host: h.host,
    models_version: version,
    sources_sha256: h.sha256,
    generation: gen,
    relations,
    event_parts: h.groups,
  });
}
