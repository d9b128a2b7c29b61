/**
 * The user's alternative to clinetrail: DuckDB alone converting the same transcript files to Parquet.
 * One `COPY (select ... from read_json([...files], ...)) TO '<out>/<kind>.parquet' (FORMAT parquet,
 * COMPRESSION zstd)` per kind: ui_messages.json and api history arrays (`format = 'array'`, one row per
 * message) and SDK messages files (`format = 'auto'`, one object per file, `unnest(messages)` to one row per
 * message). Schema auto-detection as a user would leave it. A failing COPY is recorded, not hidden.
 * `node dist/bench/duckdb-baseline.js --manifest M --out DIR` prints one JSON line.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { FleetManifest, Transcript } from './generate.js';

/** Largest JSON object read_json accepts here (its default is 16 MB). */
export const MAXIMUM_OBJECT_SIZE = 64 * 1024 * 1024;

export interface KindResult {
  kind: Transcript['kind'];
  files: number;
  bytes: number;
  rows: number | null;
  seconds: number;
  error: string | null;
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** The COPY statement for one kind of transcript. */
export function copySql(kind: Transcript['kind'], files: string[], target: string): string {
  const list = `[${files.map(sqlString).join(', ')}]`;
  const select =
    kind === 'sdk'
      ? `select sessionId, agent, unnest(messages) as message from read_json(${list}, format = 'auto', maximum_object_size = ${MAXIMUM_OBJECT_SIZE})`
      : `select * from read_json(${list}, format = 'array', maximum_object_size = ${MAXIMUM_OBJECT_SIZE})`;
  return `COPY (${select}) TO ${sqlString(target)} (FORMAT parquet, COMPRESSION zstd)`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { manifest: { type: 'string' }, out: { type: 'string' } } });
  if (!values.manifest || !values.out) throw new Error('duckdb-baseline: --manifest FILE and --out DIR are required');
  const manifest = JSON.parse(readFileSync(values.manifest, 'utf8')) as FleetManifest;
  const out = path.resolve(values.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'tmp'), { recursive: true });
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    temp_directory: path.join(out, 'tmp'),
  });
  const conn = await instance.connect();
  const t0 = performance.now();
  const results: KindResult[] = [];
  for (const kind of ['ui', 'api', 'sdk'] as const) {
    const group = manifest.transcripts.filter((t) => t.kind === kind);
    if (group.length === 0) continue;
    const started = performance.now();
    const result: KindResult = {
      kind,
      files: group.length,
      bytes: group.reduce((n, t) => n + t.bytes, 0),
      rows: null,
      seconds: 0,
      error: null,
    };
    try {
      const reader = await conn.runAndReadAll(
        copySql(
          kind,
          group.map((t) => t.path),
          path.join(out, `${kind}.parquet`),
        ),
      );
      result.rows = Number(reader.getRows()[0]?.[0] ?? 0);
    } catch (err) {
      result.error = (err as Error).message.split('\n')[0].slice(0, 400);
    }
    result.seconds = (performance.now() - started) / 1000;
    results.push(result);
  }
  const seconds = (performance.now() - t0) / 1000;
  conn.closeSync();
  instance.closeSync();
  const rows = results.reduce((n, r) => n + (r.rows ?? 0), 0);
  const bytes = results.reduce((n, r) => n + r.bytes, 0);
  process.stdout.write(
    `${JSON.stringify({ files: manifest.transcripts.length, bytes, rows, seconds, ok: results.every((r) => r.error === null), kinds: results })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`duckdb-baseline: ${(err as Error).message}\n`);
  process.exit(1);
});
