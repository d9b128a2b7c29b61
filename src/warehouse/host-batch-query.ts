/**
 * Queries over a few hosts at a time (issue 26: hunts within DuckDB's memory limit whatever the fleet's
 * size). A question that looks inside one host at a time (a hunt whose header says `scope: host`) need not
 * bind views over every part of the fleet, nor recompute the whole fleet's timeline: each batch of hosts
 * (warehouse/host-models.ts `batches`, cut at QUERY_BATCH) gets a warehouse of its own, a database
 * file in a temporary folder of the batch (removed at its end), assembled from the model files exactly as
 * fleet.duckdb is (warehouse/build.ts `assembly`) but over that batch's partitions and per-host model
 * files only (its timeline, `int_timeline`, among them: the host build stores it, warehouse/host-models.ts
 * STORED_VIEWS). The connection is then closed in the query sandbox as a query's is
 * (warehouse/query-sandbox.ts), so a hunt runs under the same rules on a batch as on fleet.duckdb.
 *
 * The rows of a host in its batch's warehouse are its rows in fleet.duckdb: every model rule is local to a
 * host (docs/ARCHITECTURE.md "The models, host by host"). Only the fleet-wide views (`hosts`, `load_runs`:
 * run records) differ, and a batch has no run records: a question that reads them is not one host's.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as path from 'node:path';
import { type HostModelsRecord, hostModelDir, readHostModelsRecord, readModelSchema } from '../core/model-layout.js';
import { assembly } from './build.js';
import { listedFiles } from './file-lists.js';
import {
  type BatchLimits,
  batches,
  buildOnlyTables,
  type HostSources,
  hostSources,
  MODEL_BATCH,
  together,
} from './host-models.js';
import { outRelative, placeholders, runModels, type SourceFiles, setOutStatement } from './model-run.js';
import { modelsVersion } from './models-version.js';
import { mergedGroups } from './part-schemas.js';
import { withSandboxedConnection } from './query-connection.js';
import { createQueryTemp } from './query-temp.js';
import { sqlIdent } from './sql-literal.js';

/** One batch of hosts: their partitions' files and their models' commit records. */
export interface HostBatch {
  hosts: string[];
  files: SourceFiles;
  records: HostModelsRecord[];
}

/**
 * Every file of OUT (relative to OUT) that the views of the warehouse on `fleet` read: those of its file
 * lists (warehouse/file-lists.ts) and those named in the views' text.
 */
async function filesOfViews(fleet: DuckDBConnection): Promise<Set<string>> {
  const found = new Set<string>(await listedFiles(fleet));
  const rows = (await fleet.runAndReadAll('select sql from duckdb_views() where not internal')).getRows();
  for (const [sql] of rows) for (const m of String(sql).matchAll(/'((?:[^']|'')*)'/g)) found.add(m[1].replace(/''/g, "'"));
  return found;
}

/**
 * The batches of a question: the model build's, but of 40 MB of parts where the build now cuts at 28 MB.
 * A batch's warehouse is a database file, not the build's memory, and every batch costs an assembly, so
 * smaller batches would only add time (docs/BENCHMARKS.md, "The model batches of the 6.9 GB fleet").
 */
const QUERY_BATCH: BatchLimits = { ...MODEL_BATCH, partBytes: 40 * 1024 * 1024 };

/**
 * The fleet's hosts in batches of QUERY_BATCH (cut again to `maxHosts` hosts), each with its
 * models' commit record; or null when those are not what the warehouse on `fleet` reads (a shard load
 * since its build, a build that failed half way, clinetrail changed since): the caller then asks the
 * warehouse itself. Each record must be of this clinetrail's models version (the model files a batch runs
 * are those fleet.duckdb ran), and the parts and per-host files of the records together must be those
 * fleet.duckdb's views name.
 */
export async function hostBatches(
  outDir: string,
  fleet: DuckDBConnection,
  maxHosts = Number.POSITIVE_INFINITY,
): Promise<HostBatch[] | null> {
  const version = await modelsVersion();
  const sources = await hostSources(outDir);
  const records = new Map<string, HostModelsRecord>();
  const expected = new Set<string>();
  for (const h of sources) {
    const record = readHostModelsRecord(outDir, h.host);
    if (record === null || record.models_version !== version || record.event_parts === undefined) return null;
    records.set(h.host, record);
    for (const part of Object.values(record.event_parts).flat()) expected.add(part);
    for (const [table, names] of Object.entries(record.relations))
      for (const name of names) expected.add(outRelative(outDir, path.join(hostModelDir(outDir, table, h.host), name)));
  }
  const read = await filesOfViews(fleet);
  const readOfOut = [...read].filter((f) => f.startsWith('parquet/') || f.startsWith('models/'));
  if (readOfOut.length !== expected.size || readOfOut.some((f) => !expected.has(f))) return null;
  const cut = batches(sources, QUERY_BATCH).flatMap((batch) => {
    const parts: HostSources[][] = [];
    for (let i = 0; i < batch.length; i += maxHosts) parts.push(batch.slice(i, i + maxHosts));
    return parts;
  });
  return cut.map((batch) => {
    const files = together(batch);
    return { hosts: batch.map((h) => h.host), files, records: batch.map((h) => records.get(h.host) as HostModelsRecord) };
  });
}

/** Assembles the batch's warehouse on `conn` (a new database of the batch's own). */
async function assembleBatch(conn: DuckDBConnection, outDir: string, batch: HostBatch): Promise<void> {
  const version = await modelsVersion();
  const schema = readModelSchema(outDir, version);
  if (schema === null) throw new Error(`query: OUT has no models of this version; run clinetrail models --out OUT`);
  const parquetGroups = mergedGroups(batch.records.map((r) => r.event_parts));
  const vars = placeholders(outDir, { ...batch.files, parquetGroups }, false);
  await conn.run('begin transaction');
  await runModels(conn, vars, assembly(outDir, schema, batch.records, await buildOnlyTables(vars)));
  await conn.run('commit');
}

/**
 * Replaces each view of `views` (in order: a later one may read an earlier one) by a view over a table of
 * its rows, computed once here: the batch's questions then read those rows instead of running the view's
 * rules again each time they name it. The tables live in the batch's database file, compressed and out of
 * memory once written. Not the model build's Parquet file of a view's rows (per-host-copy.ts
 * storeViewRows, which the per-host copy needs): here it was slower and peaked higher (docs/BENCHMARKS.md
 * "The hunts' views computed once per batch").
 */
async function storeViews(conn: DuckDBConnection, views: readonly string[]): Promise<void> {
  for (const view of views) {
    const rows = sqlIdent(`${view}__rows`);
    await conn.run(`create table ${rows} as select * from ${sqlIdent(view)}`);
    await conn.run(`create or replace view ${sqlIdent(view)} as select * from ${rows}`);
  }
}

/**
 * Runs `use` on a sandboxed connection to the warehouse of one batch of hosts (see the head of this file,
 * and warehouse/query-connection.ts), with the rows of the views `stored` computed once before it
 * (storeViews); `onOpen` hears the connection as soon as it exists, so a caller can interrupt it.
 */
export async function withHostBatchConnection<T>(
  outDir: string,
  batch: HostBatch,
  use: (conn: DuckDBConnection) => Promise<T>,
  onOpen: (conn: DuckDBConnection) => void = () => {},
  stored: readonly string[] = [],
): Promise<T> {
  const prepare = async (conn: DuckDBConnection) => {
    await conn.run(setOutStatement(outDir));
    await assembleBatch(conn, outDir, batch);
    await storeViews(conn, stored);
  };
  const temp = await createQueryTemp(outDir);
  try {
    const file = path.join(temp.dir, 'batch.duckdb');
    return await withSandboxedConnection(outDir, { file, tempDir: temp.dir, settings: {}, prepare, onOpen }, use);
  } finally {
    await temp.remove();
  }
}
