/**
 * Seeded random-mutation fuzzing of every reader, run directly (READERS + makeSource): valid fixture
 * bytes are flipped, inserted, deleted, truncated and duplicated; the reader must not throw, must finish,
 * must yield rows of the schema's types, and must yield a `parser:` row for a file it reads whose bytes
 * no longer parse as JSON (JSONL: any line; a `.log`: bytes that are not UTF-8 text), or for a git object
 * file it reads whose object changed. Seed: env FUZZ_SEED (default below); a failure prints the
 * seed, the case number, the file and the mutations, and `FUZZ_SEED=<seed> FUZZ_CASE=<n>` replays one.
 */
import { isUtf8 } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/core/records.js';
import { READERS } from '../../src/readers/registry.js';
import type { Row, StoreId } from '../../src/core/row.js';
import { TARGETS, targetFiles } from '../helpers/reader-targets.js';
import { copyImage, fixture, makeSource } from '../helpers/source.js';

const SEED = Number.parseInt(process.env.FUZZ_SEED ?? '', 10) || 0xc11e7a;
const ONLY_CASE = process.env.FUZZ_CASE === undefined ? null : Number.parseInt(process.env.FUZZ_CASE, 10);
const CASES = 50;
/** A reader yielding more rows than this for a small fixture is looping. */
const MAX_ROWS = 100_000;

/** mulberry32: small, fast, seeded. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = ['{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\r\n', 'null', '-1e999', '\u0000', '\ud800'].map((t) =>
  Buffer.from(t),
);

/** Applies 1-3 random mutations; returns the bytes and what was done. */
function mutate(input: Buffer, rand: () => number): { bytes: Buffer; steps: string[] } {
  let b = Buffer.from(input);
  const steps: string[] = [];
  const at = (n: number) => Math.floor(rand() * Math.max(1, n));
  const count = 1 + at(3);
  for (let i = 0; i < count; i++) {
    const op = at(6);
    const p = at(b.length);
    if (op === 0 && b.length > 0) {
      const x = 1 + at(255);
      b[p] ^= x;
      steps.push(`flip byte ${p} ^ 0x${x.toString(16)}`);
    } else if (op === 1) {
      const ins = rand() < 0.5 ? Buffer.from(Array.from({ length: 1 + at(8) }, () => at(256))) : TOKENS[at(TOKENS.length)];
      b = Buffer.concat([b.subarray(0, p), ins, b.subarray(p)]);
      steps.push(`insert ${ins.toString('hex')} at ${p}`);
    } else if (op === 2) {
      const n = 1 + at(16);
      b = Buffer.concat([b.subarray(0, p), b.subarray(p + n)]);
      steps.push(`delete ${n} bytes at ${p}`);
    } else if (op === 3) {
      b = b.subarray(0, p);
      steps.push(`truncate to ${p}`);
    } else if (op === 4) {
      const n = 1 + at(64);
      b = Buffer.concat([b.subarray(0, p + n), b.subarray(p, p + n), b.subarray(p + n)]);
      steps.push(`duplicate ${n} bytes at ${p}`);
    } else {
      const q = at(b.length);
      const n = 1 + at(32);
      b = Buffer.concat([b.subarray(0, q), b.subarray(p, p + n), b.subarray(q)]);
      steps.push(`copy ${n} bytes from ${p} to ${q}`);
    }
  }
  return { bytes: b, steps };
}

/** Whether the bytes parse as one JSON document (UTF-8 BOM allowed, as the readers allow it). */
function parsesAsJson(bytes: Buffer): boolean {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether every non-blank line parses (CRLF and a BOM on the first line allowed). */
function linesParse(bytes: Buffer): boolean {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.split('\n').every((line) => {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (l.trim() === '') return true;
    try {
      JSON.parse(l);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Whether the bytes are text: valid UTF-8 without NUL bytes. A log (`.log`, the cline-logs store) has no
 * syntax to break, every line of it is a row; what it cannot read is bytes that are not text.
 */
function isText(bytes: Buffer): boolean {
  return isUtf8(bytes) && !bytes.includes(0);
}

/** Whether two zlib streams inflate to the same bytes (a flip of the padding bits after a stream's last block does not change them). */
function sameInflated(a: Buffer, b: Buffer): boolean {
  try {
    return inflateSync(a).equals(inflateSync(b));
  } catch {
    return false;
  }
}

/**
 * Whether a mutated file that a reader reads must give a `parser:` row naming it: a JSON or JSONL file
 * whose bytes no longer parse; a pack, every byte of which its SHA-1 trailer covers; a loose git object
 * that no longer inflates to the same object. SQLite files and the other git files (refs, reflogs,
 * config: plain text) can stay valid.
 */
function mustComplain(relPath: string, bytes: Buffer, original: Buffer): boolean {
  const name = path.basename(relPath);
  // SQLite files (a database, an editor's state.vscdb, the 3.x hub's instance lock) are checked by their header, not as JSON
  if (/\.(db|vscdb|instance\.lock)$/.test(name)) return false;
  if (/\/\.git\/objects\/pack\/[^/]+\.pack$/.test(relPath)) return true;
  if (/\/\.git\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(relPath)) return !sameInflated(bytes, original);
  if (/\/\.git\//.test(relPath)) return false;
  return name.endsWith('.jsonl') ? !linesParse(bytes) : name.endsWith('.log') ? !isText(bytes) : !parsesAsJson(bytes);
}

/** Problems with a row's types, per core/records.ts. */
function typeProblems(row: Row): string[] {
  const problems: string[] = [];
  for (const c of COLUMNS) {
    const v = row[c.name] as unknown;
    const required = ['host', 'store', 'source_file', 'source_seq', 'source_role', 'turn_type', 'kind'].includes(c.name);
    if (v === null || v === undefined) {
      if (required || v === undefined) problems.push(`${c.name} is ${v}`);
      continue;
    }
    const ok =
      c.type === 'utf8'
        ? typeof v === 'string'
        : c.type === 'bool'
          ? typeof v === 'boolean'
          : c.type === 'float64'
            ? typeof v === 'number' && Number.isFinite(v)
            : typeof v === 'number' && Number.isSafeInteger(v) && (c.type !== 'int32' || Math.abs(v) < 2 ** 31);
    if (!ok) problems.push(`${c.name} has the wrong type: ${typeof v} ${String(v).slice(0, 40)}`);
  }
  return problems;
}

/** Resident memory bound of the test process after each case, in MB. */
const MAX_RSS_MB = 1024;

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-fuzz-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function readAll(store: StoreId, source: ReturnType<typeof makeSource>): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of READERS[store](source)) {
    rows.push(row);
    if (rows.length > MAX_ROWS) throw new Error(`more than ${MAX_ROWS} rows: looping`);
  }
  return rows;
}

describe(`fuzz every reader (seed ${SEED}, ${CASES} cases each; replay with FUZZ_SEED=${SEED} FUZZ_CASE=n)`, () => {
  it.each(TARGETS.map((t) => [t.store, t] as const))('%s', async (_name, t) => {
    const imageRoot = path.join(work, t.store);
    copyImage(fixture(t.img, 'img'), imageRoot);
    const { root, files } = targetFiles(t, imageRoot);
    expect(files.length, `fixture files of ${t.store}`).toBeGreaterThan(0);
    const originals = new Map(files.map((f) => [f, readFileSync(f)]));
    const source = makeSource({ store: t.store, imageRoot, root, files });
    const rel = (f: string) => path.relative(imageRoot, f).split(path.sep).join('/');
    const readFiles = new Set((await readAll(t.store, source)).map((r) => r.source_file));
    const failures: string[] = [];
    for (let n = 0; n < CASES; n++) {
      if (ONLY_CASE !== null && n !== ONLY_CASE) continue;
      const rand = prng(SEED * 1000 + n + t.store.length * 7919);
      const file = files[Math.floor(rand() * files.length)];
      const { bytes, steps } = mutate(originals.get(file)!, rand);
      for (const [f, b] of originals) writeFileSync(f, b);
      writeFileSync(file, bytes);
      const label = `FUZZ_SEED=${SEED} FUZZ_CASE=${n} ${t.store} ${rel(file)}: ${steps.join('; ')}`;
      let rows: Row[];
      try {
        rows = await readAll(t.store, source);
      } catch (err) {
        failures.push(`${label}: THREW ${(err as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
        continue;
      }
      // bounded memory: a mutated fixture of a few KB never makes the process grow past the bound
      const rssMb = process.memoryUsage().rss / 1024 / 1024;
      if (rssMb > MAX_RSS_MB)
        failures.push(`${label}: process RSS ${Math.round(rssMb)} MB after the case (bound ${MAX_RSS_MB} MB)`);
      for (const row of rows) {
        const problems = typeProblems(row);
        if (problems.length > 0) {
          failures.push(`${label}: row ${row.kind} ${row.source_file}:${row.source_line}: ${problems.join(', ')}`);
          break;
        }
      }
      const checkable = readFiles.has(rel(file)) && mustComplain(rel(file), bytes, originals.get(file)!);
      if (checkable && !rows.some((r) => r.kind === 'parser' && r.source_file === rel(file))) {
        failures.push(`${label}: the bytes no longer parse but no parser row names the file`);
      }
    }
    for (const [f, b] of originals) writeFileSync(f, b);
    if (failures.length > 0) console.error(failures.join('\n'));
    expect(failures).toEqual([]);
  });
});
