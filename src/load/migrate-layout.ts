/**
 * Moves an OUT written before the portable dataset layout into the current one (core/layout.ts): the old
 * `parquet/events/host=H/store=S/` folders held the parts, the manifest and the side files together;
 * now the parts lie alone in `parquet/events/<host>/<store>/` and the rest in `records/<host>/<store>/`.
 * Renames only, inside OUT, under the load's lock: every partition keeps its rows, also those of hosts
 * absent from this load's input (load/membership.ts keeps them), which reading again could not rebuild.
 * The manifest of a partition moves last, so a load killed midway finds each partition either still in
 * the old folder (moved by the next load) or committed in the new one; the parts written by the code
 * before are read as they are (their millisecond timestamps are read by DuckDB as the same instants).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { eventsDir, MANIFEST_FILE, partitionDir, partsDirOf } from '../core/layout.js';

const OLD_HOST = 'host=';
const OLD_STORE = 'store=';

/** Moves every old-layout partition of OUT; returns how many were moved (0 for an OUT of the current layout). */
export async function migrateOldLayout(out: string): Promise<number> {
  const events = eventsDir(out);
  const hosts = (await fs.readdir(events, { withFileTypes: true }).catch(() => [])).filter(
    (e) => e.isDirectory() && e.name.startsWith(OLD_HOST),
  );
  let moved = 0;
  for (const h of hosts) {
    const oldHost = path.join(events, h.name);
    const host = decodeURIComponent(h.name.slice(OLD_HOST.length));
    for (const s of await fs.readdir(oldHost, { withFileTypes: true })) {
      if (!s.isDirectory() || !s.name.startsWith(OLD_STORE)) continue;
      await movePartition(path.join(oldHost, s.name), out, host, s.name.slice(OLD_STORE.length));
      moved += 1;
    }
    await fs.rmdir(oldHost).catch((err: Error) => {
      throw new Error(`moving ${oldHost} to the current layout: ${err.message}`);
    });
  }
  return moved;
}

async function movePartition(oldDir: string, out: string, host: string, store: string): Promise<void> {
  const records = partitionDir(out, host, store);
  const parts = partsDirOf(records);
  await fs.mkdir(records, { recursive: true });
  await fs.mkdir(parts, { recursive: true });
  const names = (await fs.readdir(oldDir)).sort((a, b) => Number(a === MANIFEST_FILE) - Number(b === MANIFEST_FILE));
  for (const name of names) {
    await fs.rename(path.join(oldDir, name), path.join(name.endsWith('.parquet') ? parts : records, name));
  }
  await fs.rmdir(oldDir);
  // a partition of the old layout had no Parquet folder of its own when it had no rows
  if ((await fs.readdir(parts)).length === 0) await fs.rmdir(parts);
}
