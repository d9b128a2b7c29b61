/**
 * What the side-store reader tests share (test/readers/{hub-runs,teams-db,tasks-db,cron-db,connectors-db,
 * locks}/reader.test.ts): a row in brief, a store read as discovery would list it, a temp image holding one
 * database, and the rows of a real home's store read without changing a byte of it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import type { Row, StoreId } from '../../src/core/row.js';
import { discoverImage } from '../../src/discover/discover.js';
import { READERS } from '../../src/readers/registry.js';
import { type SideDbStore, type TableRows, type WriteSideDbOptions, writeSideDb } from './side-store-dbs.js';
import { makeImage, snapshotFolder, type TempImage } from './sqlite-fixtures.js';
import { collect, fixture } from './source.js';

/** A row as the tests compare it: where, what, when (ISO), whose, and its text. */
export interface BriefRow {
  line: number | null;
  seq: number;
  kind: string;
  at: string | null;
  sid: string | null;
  text: string | null;
}

export function brief(r: Row): BriefRow {
  return {
    line: r.source_line,
    seq: r.source_seq,
    kind: r.kind,
    at: r.timestamp_utc === null ? null : new Date(r.timestamp_utc).toISOString(),
    sid: r.session_id,
    text: r.text,
  };
}

/** The rows of `store` in an image, its files found by discovery (every home, every root of the image). */
export async function readDiscovered(store: StoreId, imageRoot: string): Promise<{ rows: Row[]; files: string[] }> {
  const found = await discoverImage({ host: 'test-host', root: imageRoot });
  expect(found.problems).toEqual([]);
  const rows: Row[] = [];
  const files: string[] = [];
  for (const source of found.sources.filter((s) => s.store === store)) {
    rows.push(...(await collect(READERS[store], source)));
    files.push(...source.files.map((f) => path.relative(imageRoot, f).split(path.sep).join('/')));
  }
  return { rows, files };
}

/** Images made by `imageWith`, removed by `removeImages`. */
const made: TempImage[] = [];

/** A temp image holding one database of `store` (its name `dbName`) with `tables`. */
export function imageWith(store: SideDbStore, dbName: string, tables: TableRows, options: WriteSideDbOptions = {}): TempImage {
  const img = makeImage();
  made.push(img);
  const dir = store === 'locks' ? img.dataRoot : img.dbDir;
  writeSideDb(path.join(dir, dbName), store, tables, options);
  return img;
}

/** A temp image with `file` (data-root relative) holding `bytes`. */
export function imageWithFile(relative: string, bytes: string | Buffer): TempImage {
  const img = makeImage();
  made.push(img);
  const file = path.join(img.dataRoot, ...relative.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return img;
}

/** Removes every image `imageWith` made (an afterEach of the test files). */
export function removeImages(): void {
  for (const img of made.splice(0)) img.remove();
}

/** The home the released 3.x CLI wrote (corpus/drive.ts, fixtures/real-producer/cline-3.0.65). */
export const REAL_3X_IMAGE = fixture('real-producer', 'cline-3.0.65');
/** The home the released 1.x CLI wrote. */
export const REAL_1X_IMAGE = fixture('real-producer', 'cline-1.0.10');
/** The home the released 2.18.0 CLI wrote (corpus/README.md), as an image. */
export const REAL_2X_IMAGE = fixture('real-producer', 'cline-2.18.0');

/**
 * The rows of `store` in a real home's image, asserting that reading them changed no file of the image
 * (every file's size, mtime and SHA-256, and the list of files).
 */
export async function readRealHome(store: StoreId, imageRoot: string): Promise<{ rows: Row[]; files: string[] }> {
  const before = snapshotFolder(imageRoot);
  const read = await readDiscovered(store, imageRoot);
  expect(snapshotFolder(imageRoot)).toEqual(before);
  return read;
}
