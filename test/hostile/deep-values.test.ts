/**
 * Values nested far deeper than any walk may recurse, in every place a value can be: each value of every
 * JSON and JSONL fixture file and JSON line of a `.log` (and of the JSON texts its strings hold, such as a
 * ClineSayTool) is replaced in turn by an array or object nested DEPTH levels deep, and the store's reader
 * is run directly (READERS + makeSource). The reader must not throw, no stack overflow may reach a row (the
 * readers bound their walks; a `parser:` row saying "call stack" means a walk that was not bounded), and
 * every other file of the store gives as many rows as before: one deep value never costs another file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { READERS } from '../../src/readers/registry.js';
import type { Row, Source } from '../../src/core/row.js';
import { TARGETS, targetFiles } from '../helpers/reader-targets.js';
import { copyImage, fixture, makeSource } from '../helpers/source.js';

/** Deep enough to overflow any recursion of V8 (JSON.stringify, String(array), yield*) at about 5,000 levels. */
const DEPTH = 20_000;
const DEEP_ARRAY = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const DEEP_OBJECT = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const SENTINEL = '__clinetrail_deep_value__';
/** The files whose values are replaced: JSON, JSONL, and logs (whose JSON lines are values like JSONL's). */
const VALUE_FILE = /\.(jsonl?|log)$/;

type Key = string | number;
/** A value's place: its key path in the document and, for a JSON text held in a string there, the path inside it. */
interface Place {
  line: number | null;
  outer: Key[];
  inner: Key[] | null;
}

/** Every key path of a JSON value, the root included. */
function pathsOf(value: unknown, prefix: Key[] = []): Key[][] {
  const out: Key[][] = [prefix];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push(...pathsOf(v, [...prefix, i]));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  }
  return out;
}

function at(doc: unknown, keys: Key[]): unknown {
  return keys.reduce<unknown>((v, k) => (v as Record<Key, unknown>)[k], doc);
}

/** A JSON object or array held in a string, or null. */
function embedded(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** Every place of one JSON document (`line` for a JSONL line). */
function placesOf(doc: unknown, line: number | null): Place[] {
  const places: Place[] = [];
  for (const outer of pathsOf(doc)) {
    places.push({ line, outer, inner: null });
    const inner = embedded(at(doc, outer));
    if (inner !== null) for (const p of pathsOf(inner)) places.push({ line, outer, inner: p });
  }
  return places;
}

/** The JSON text of `doc` with the value at `keys` replaced by the JSON text `replacement`. */
function replaced(doc: unknown, keys: Key[], replacement: string): string {
  if (keys.length === 0) return replacement;
  const copy = structuredClone(doc);
  (at(copy, keys.slice(0, -1)) as Record<Key, unknown>)[keys[keys.length - 1]] = SENTINEL;
  return JSON.stringify(copy).replace(JSON.stringify(SENTINEL), () => replacement);
}

/** The document's text with a deep value at `place`. */
function deepText(doc: unknown, place: Place, deep: string): string {
  if (place.inner === null) return replaced(doc, place.outer, deep);
  const innerText = replaced(embedded(at(doc, place.outer)), place.inner, deep);
  return replaced(doc, place.outer, JSON.stringify(innerText));
}

function parsedOrUndefined(text: string): unknown {
  try {
    return text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describePlace(place: Place): string {
  const keys = (k: Key[]) => (k.length === 0 ? '$' : `$.${k.join('.')}`);
  const where = place.inner === null ? keys(place.outer) : `${keys(place.outer)} (JSON text) ${keys(place.inner)}`;
  return place.line === null ? where : `line ${place.line} ${where}`;
}

async function readAll(source: Source): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of READERS[source.store](source)) rows.push(row);
  return rows;
}

function countsByFile(rows: Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.source_file, (counts.get(r.source_file) ?? 0) + 1);
  return counts;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-deep-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(`a value nested ${DEPTH} levels deep in any place of any JSON fixture`, () => {
  // stores with files of values (the SQLite stores' JSON columns are tested by their own reader tests)
  const targets = TARGETS.filter((t) => targetFiles(t, fixture(t.img, 'img')).files.some((f) => VALUE_FILE.test(f)));
  it.each(targets.map((t) => [t.store, t] as const))(
    '%s: never throws, never overflows, costs no other file',
    async (_name, t) => {
      const imageRoot = path.join(work, t.store);
      copyImage(fixture(t.img, 'img'), imageRoot);
      const { root, files } = targetFiles(t, imageRoot);
      const source = makeSource({ store: t.store, imageRoot, root, files });
      const rel = (f: string) => path.relative(imageRoot, f).split(path.sep).join('/');
      const before = countsByFile(await readAll(source));
      const failures: string[] = [];
      let cases = 0;
      for (const file of files.filter((f) => VALUE_FILE.test(f))) {
        const original = readFileSync(file);
        // a log (cline-logs) is read line by line, and its JSON lines are values like JSONL's
        const jsonl = /\.(jsonl|log)$/.test(file);
        // fixture files and lines broken on purpose have no values to replace
        const docs = (jsonl ? original.toString('utf8').split('\n') : [original.toString('utf8')]).map(parsedOrUndefined);
        const places = docs.flatMap((doc, i) => (doc === undefined ? [] : placesOf(doc, jsonl ? i + 1 : null)));
        for (const [n, place] of places.entries()) {
          const deep = n % 2 === 0 ? DEEP_ARRAY : DEEP_OBJECT;
          const index = place.line === null ? 0 : place.line - 1;
          const text = deepText(docs[index], place, deep);
          if (jsonl) {
            const lines = original.toString('utf8').split('\n');
            lines[index] = text;
            writeFileSync(file, lines.join('\n'));
          } else writeFileSync(file, text);
          cases += 1;
          const label = `${rel(file)} ${describePlace(place)} (${n % 2 === 0 ? 'array' : 'object'})`;
          try {
            const rows = await readAll(source);
            const overflow = rows.find((r) => /call stack/i.test(r.text ?? ''));
            if (overflow) failures.push(`${label}: a stack overflow reached a row: ${overflow.text?.slice(0, 200)}`);
            const after = countsByFile(rows);
            for (const [f, count] of before) {
              if (f !== rel(file) && after.get(f) !== count)
                failures.push(`${label}: ${f} gave ${after.get(f) ?? 0} rows instead of ${count}`);
            }
          } catch (err) {
            failures.push(`${label}: THREW ${(err as Error).message.slice(0, 200)}`);
          }
        }
        writeFileSync(file, original);
      }
      if (failures.length > 0) console.error(failures.join('\n'));
      expect(cases).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    },
    300_000,
  );
});
