/**
 * The evidence an OUT was loaded from, as its run records (`OUT/state/runs/*.json`, core/records.ts
 * RunRecord) name it: every `--fleet` folder and every host image (folder or archive) of every load. The
 * commands that write a file the user names (`export --to`, `report --to`: cli/output-file.ts) refuse a
 * path inside any of them, so an output never lands in the evidence. A record of a load before the
 * fleet was recorded gives its images only; an unreadable record gives nothing (records are written by
 * rename, so only a hand-edited one is).
 */
import * as path from 'node:path';
import { readRunRecords } from './run-records.js';

/** The absolute input roots of every load recorded in OUT, each once. */
export async function recordedInputRoots(outDir: string): Promise<string[]> {
  const roots = new Set<string>();
  for (const record of await readRunRecords(outDir)) {
    if (typeof record.fleet === 'string') roots.add(record.fleet);
    for (const image of Array.isArray(record.host_images) ? record.host_images : [])
      if (typeof image?.image_path === 'string') roots.add(image.image_path);
  }
  return [...roots].filter((root) => path.isAbsolute(root));
}
