/**
 * The floor of a load: a bare streaming parse of the fleet's transcript files, one process, one file at a
 * time, 1 MiB reads, values discarded. ui_messages.json and api_conversation_history.json arrays use the
 * path `$.*`; SDK `*.messages.json` use `$.messages.*` (the same parser and paths as readers/json-stream.ts).
 * `node dist/bench/floor.js --manifest <dir>/fleet-manifest.json` prints one JSON line.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { parseArgs } from 'node:util';
import type { FleetManifest, Transcript } from './generate.js';

/** Parses one file; resolves to the number of values seen at the path. */
export async function parseFile(t: Pick<Transcript, 'path' | 'kind'>): Promise<number> {
  const parser = new JSONParser({ paths: [t.kind === 'sdk' ? '$.messages.*' : '$.*'], keepStack: false });
  let values = 0;
  parser.onValue = () => {
    values += 1;
  };
  for await (const chunk of createReadStream(t.path, { highWaterMark: 1024 * 1024 })) parser.write(chunk as Buffer);
  return values;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { manifest: { type: 'string' } } });
  if (!values.manifest) throw new Error('floor: --manifest FILE is required');
  const manifest = JSON.parse(readFileSync(values.manifest, 'utf8')) as FleetManifest;
  const t0 = performance.now();
  let count = 0;
  let bytes = 0;
  for (const t of manifest.transcripts) {
    count += await parseFile(t);
    bytes += t.bytes;
  }
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(`${JSON.stringify({ files: manifest.transcripts.length, bytes, values: count, seconds })}\n`);
}

main().catch((err) => {
  process.stderr.write(`floor: ${(err as Error).message}\n`);
  process.exit(1);
});
