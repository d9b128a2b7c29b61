/**
 * The floor of a load: a bare streaming parse of the fleet's transcript files, one process, one file at a
 * time, 1 MiB reads, values discarded. It uses the fastest parser we have, the one the readers use:
 * readers/parse/json-elements.ts (elements split by a byte scanner, parsed by JSON.parse) behind the same UTF-8
 * check, without streamJson's per-value events. ui_messages.json and api_conversation_history.json split
 * the root array; SDK `*.messages.json` the `messages` array. With `--tokens`, @streamparser/json instead
 * (the token parser the readers fall back to), for comparison.
 * `node dist/bench/floor.js --manifest <dir>/fleet-manifest.json [--tokens]` prints one JSON line.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { parseArgs } from 'node:util';
import { ArraySplitter } from '../src/readers/parse/json-elements.js';
import { Utf8Repair } from '../src/readers/parse/utf8-repair.js';
import type { FleetManifest, Transcript } from './generate.js';

/** Parses one file; resolves to the number of values seen at the path. */
export async function parseFile(t: Pick<Transcript, 'path' | 'kind'>): Promise<number> {
  const splitter = new ArraySplitter(t.kind === 'sdk' ? 'messages' : null);
  const utf8 = new Utf8Repair();
  let values = 0;
  for await (const chunk of createReadStream(t.path, { highWaterMark: 1024 * 1024 }))
    values += splitter.push(utf8.push(chunk as Buffer)).length;
  values += splitter.push(utf8.end()).length + splitter.end().values.length;
  if (splitter.giveUp !== null) throw new Error(`floor: ${t.path}: ${splitter.giveUp}`);
  return values;
}

/** The same with the token parser. */
export async function parseFileTokens(t: Pick<Transcript, 'path' | 'kind'>): Promise<number> {
  const parser = new JSONParser({
    paths: [t.kind === 'sdk' ? '$.messages.*' : '$.*'],
    keepStack: false,
    stringBufferSize: 64 * 1024,
  });
  let values = 0;
  parser.onValue = () => {
    values += 1;
  };
  for await (const chunk of createReadStream(t.path, { highWaterMark: 1024 * 1024 })) parser.write(chunk as Buffer);
  return values;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { manifest: { type: 'string' }, tokens: { type: 'boolean', default: false } } });
  if (!values.manifest) throw new Error('floor: --manifest FILE is required');
  const manifest = JSON.parse(readFileSync(values.manifest, 'utf8')) as FleetManifest;
  const t0 = performance.now();
  let count = 0;
  let bytes = 0;
  for (const t of manifest.transcripts) {
    count += await (values.tokens ? parseFileTokens(t) : parseFile(t));
    bytes += t.bytes;
  }
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(
    `${JSON.stringify({ parser: values.tokens ? '@streamparser/json' : 'json-elements', files: manifest.transcripts.length, bytes, values: count, seconds })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`floor: ${(err as Error).message}\n`);
  process.exit(1);
});
