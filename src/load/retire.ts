/**
 * Removal of what no warehouse reads any more: the files of older generations in each partition folder,
 * and partition folders without a manifest (a host or store no longer in the input, whose manifest the
 * load withdrew, or a killed write's leftovers). Runs only once fleet.duckdb reads the current
 * manifests (it was just rebuilt, or nothing changed since it was), so a query of the previous
 * warehouse, during a load or after a load killed at any point, finds every file it names.
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventsDir, hostDirName, MANIFEST_FILE, partitionDirs, partsDirs, recordsDir } from '../core/layout.js';
import { manifestFiles, readManifest } from '../core/manifest.js';
import {
  type HostModelsRecord,
  hostModelsRecordsDir,
  modelSchemaFile,
  modelsDir,
  readHostModelsRecord,
} from '../core/model-layout.js';

/**
 * Withdraws a partition from the next warehouse: its manifest is removed, its files stay for the
 * current warehouse until removeUnreferenced. Returns whether there was a manifest.
 */
export async function withdrawPartition(dir: string): Promise<boolean> {
  return fs.rm(path.join(dir, MANIFEST_FILE)).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return false;
      throw err;
    },
  );
}

/**
 * How long the files the previous warehouse read stay after the new one is in place: a query that
 * opened the previous fleet.duckdb just before the swap still finds them while it binds and scans.
 * TEST-ONLY, not a user option: `CLINETRAIL_TEST_RETIRE_GRACE_MS` shortens it, so the suites' hundreds
 * of reloads do not each wait a second (vitest.config.ts sets 0). The test of queries during a load
 * (test/hostile/partition-state.test.ts) runs with the default, and fails without it.
 */
export const RETIRE_GRACE_DEFAULT_MS = 1000;
export const RETIRE_GRACE_MS = Number(process.env.CLINETRAIL_TEST_RETIRE_GRACE_MS ?? RETIRE_GRACE_DEFAULT_MS);

/**
 * Deletes every file and folder under OUT/parquet/events and OUT/records that no manifest names, after
 * `graceMs` when there is anything to delete. A Parquet folder is judged by the manifest of the
 * records folder of the same name.
 */
export async function removeUnreferenced(outDir: string, graceMs = 0): Promise<void> {
  const doomed: string[] = [];
  const kept = new Map<string, Set<string>>();
  for (const dir of await partitionDirs(outDir)) {
    const m = readManifest(dir);
    if (m === null) {
      doomed.push(dir);
      continue;
    }
    const names = manifestFiles(m).map((f) => f.name);
    kept.set(path.relative(recordsDir(outDir), dir), new Set(names.filter((n) => n.endsWith('.parquet'))));
    const keep = new Set([MANIFEST_FILE, ...names]);
    for (const name of await fs.readdir(dir)) if (!keep.has(name)) doomed.push(path.join(dir, name));
  }
  const events = eventsDir(outDir);
  for (const dir of await partsDirs(outDir)) {
    const keep = kept.get(path.relative(events, dir));
    if (keep === undefined) {
      doomed.push(dir);
      continue;
    }
    for (const name of await fs.readdir(dir)) if (!keep.has(name)) doomed.push(path.join(dir, name));
  }
  doomed.push(...(await unreferencedModels(outDir, kept.size === 0 ? new Set() : hostsOf(kept))));
  if (doomed.length === 0) return;
  if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
  for (const p of doomed) await fs.rm(p, { recursive: true, force: true });
  for (const root of [events, recordsDir(outDir)]) {
    for (const h of await fs.readdir(root).catch(() => [] as string[])) {
      // a host folder whose every partition is gone
      await fs.rmdir(path.join(root, h)).catch(() => {});
    }
  }
}

/** The host folders of the partitions kept (keys `<host>/<store>` relative to OUT/records). */
function hostsOf(kept: Map<string, Set<string>>): Set<string> {
  return new Set([...kept.keys()].map((key) => key.split(path.sep)[0]));
}

/**
 * What of OUT/models no current host names (core/model-layout.ts): the records of hosts without a
 * partition, the files of older generations, the folders of hosts gone, and the schemas of models versions
 * no host record holds.
 */
async function unreferencedModels(outDir: string, hostFolders: Set<string>): Promise<string[]> {
  const root = modelsDir(outDir);
  const records = hostModelsRecordsDir(outDir);
  const doomed: string[] = [];
  const keptFiles = new Set<string>();
  const versions = new Set<string>();
  for (const name of await fs.readdir(records).catch(() => [] as string[])) {
    const folder = name.endsWith('.json') ? name.slice(0, -'.json'.length) : null;
    const r = folder !== null && hostFolders.has(folder) ? readRecordOfFolder(outDir, records, name) : null;
    if (r === null) {
      doomed.push(path.join(records, name));
      continue;
    }
    versions.add(r.models_version);
    for (const [relation, files] of Object.entries(r.relations))
      for (const f of files) keptFiles.add(path.join(relation, String(folder), f));
  }
  for (const entry of await fs.readdir(root, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(root, entry.name);
    if (!entry.isDirectory()) {
      const version = entry.name.match(/^_schema-(.+)\.json$/)?.[1];
      if (version === undefined || !versions.has(version) || modelSchemaFile(outDir, version) !== full) doomed.push(full);
      continue;
    }
    if (full === records) continue;
    for (const host of await fs.readdir(full)) {
      const files = await fs.readdir(path.join(full, host)).catch(() => [] as string[]);
      const gone = files.filter((f) => !keptFiles.has(path.join(entry.name, host, f)));
      if (gone.length === files.length) doomed.push(path.join(full, host));
      else doomed.push(...gone.map((f) => path.join(full, host, f)));
    }
  }
  return doomed;
}

/** The record in `name` of OUT/models/_hosts when it is the record of the host it names (else null). */
function readRecordOfFolder(outDir: string, records: string, name: string): HostModelsRecord | null {
  try {
    const { host } = JSON.parse(readFileSync(path.join(records, name), 'utf8')) as { host: string };
    return `${hostDirName(host)}.json` === name ? readHostModelsRecord(outDir, host) : null;
  } catch {
    return null;
  }
}
