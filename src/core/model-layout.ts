/**
 * Where the models of each host live under OUT (docs/ARCHITECTURE.md "The models, host by host"): the
 * model build runs per batch of hosts (warehouse/host-models.ts) and writes each per-host relation as
 * Parquet, one folder per relation and host, `OUT/models/<relation>/<host>/<relation>-<gen>-<n>.parquet`
 * (host escaped as in core/layout.ts hostDirName). The commit record of a host's models,
 * `OUT/models/_hosts/<host>.json`, names its current generation's files, as a partition's
 * `_partition.json` does its own; older generations stay until the warehouse that reads them has been
 * replaced (load/retire.ts). `OUT/models/_schema-<models version>.json` holds the columns of every
 * per-host relation, so a relation no host has rows of is still a typed relation of fleet.duckdb.
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { hostDirName } from './layout.js';

/** `OUT/models`: one folder per relation, one folder per host in it. */
export function modelsDir(outDir: string): string {
  return path.join(outDir, 'models');
}

/** The folder of one relation of one host: `OUT/models/<relation>/<host>`. */
export function hostModelDir(outDir: string, relation: string, host: string): string {
  return path.join(modelsDir(outDir), relation, hostDirName(host));
}

/** Name of file `n` of a relation of generation `gen`. */
export function modelFileName(relation: string, gen: string, n: number): string {
  return `${relation}-${gen}-${n}.parquet`;
}

/** The folder of the hosts' commit records, `OUT/models/_hosts` (no host folder starts with `_`). */
export function hostModelsRecordsDir(outDir: string): string {
  return path.join(modelsDir(outDir), '_hosts');
}

/** The commit record of a host's models: `OUT/models/_hosts/<host>.json`. */
export function hostModelsRecordFile(outDir: string, host: string): string {
  return path.join(hostModelsRecordsDir(outDir), `${hostDirName(host)}.json`);
}

/** The commit record of one host's models. */
export interface HostModelsRecord {
  format: 1;
  host: string;
  /** The models version (warehouse/models-version.ts) that built them. */
  models_version: string;
  /** SHA-256 of the host's partition manifests and their files' sizes and mtimes when built: another value means build again. */
  sources_sha256: string;
  generation: string;
  /** Per relation, the names of its files in the host's folder of that relation (none: no rows). */
  relations: Record<string, string[]>;
  /**
   * The host's Parquet parts (relative to OUT) by the hash of their schema (warehouse/part-schemas.ts):
   * raw_events reads each group by position.
   */
  event_parts: Record<string, string[]>;
}

/** A host's commit record, or null when there is none or it cannot be read (its models are built again). */
export function readHostModelsRecord(outDir: string, host: string): HostModelsRecord | null {
  try {
    const r = JSON.parse(readFileSync(hostModelsRecordFile(outDir, host), 'utf8')) as HostModelsRecord;
    return r.format === 1 && r.host === host ? r : null;
  } catch {
    return null;
  }
}

/** Commits a host's models: the record is written beside and renamed over the old one. */
export async function writeHostModelsRecord(outDir: string, record: HostModelsRecord): Promise<void> {
  const file = hostModelsRecordFile(outDir, record.host);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(record)}\n`);
  await fs.rename(tmp, file);
}

/** The columns (name, DuckDB type) of every per-host relation of one models version. */
export type ModelSchema = Record<string, Array<[string, string]>>;

/** `OUT/models/_schema-<models version>.json`. */
export function modelSchemaFile(outDir: string, modelsVersion: string): string {
  return path.join(modelsDir(outDir), `_schema-${modelsVersion}.json`);
}

/** The schema written for a models version (by the first batch built under it), or null. */
export function readModelSchema(outDir: string, modelsVersion: string): ModelSchema | null {
  const file = modelSchemaFile(outDir, modelsVersion);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ModelSchema) : null;
}

/** Where a batch build stages its files before they are renamed into the hosts' folders: `OUT/tmp/models-<gen>`. */
export function modelStagingDir(outDir: string, gen: string): string {
  return path.join(outDir, 'tmp', `models-${gen}`);
}
