/**
 * The temporary folder of one query, where DuckDB spills a sort or join bigger than its memory limit.
 * Each query has its own, `OUT/tmp/query-<pid>-<random>`, removed when the query ends. A query that was
 * killed cannot remove its own, so every query first removes the folders of queries whose pid no longer
 * runs, and the `OUT/fleet.duckdb.tmp` that queries used before (DuckDB's default, which nothing removed).
 * A warehouse on read-only media (an archived case) spills into `<os.tmpdir()>/clinetrail-query-<pid>-<random>`
 * instead, with the same rule for leftovers there. Its size is limited by DuckDB (warehouse/query-sandbox.ts).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { processRunning } from '../evidence/private-folders.js';

/** Name prefix of query temporary folders in OUT/tmp. */
const IN_OUT = 'query-';
/** Name prefix of query temporary folders in os.tmpdir(), where a read-only OUT sends them. */
const IN_SYSTEM_TMP = 'clinetrail-query-';

/** The temporary folder of one query, and how to remove it. */
export interface QueryTemp {
  dir: string;
  remove(): Promise<void>;
}

/** Removes `<parent>/<prefix><pid>-<hex>` folders whose pid no longer runs; errors are left for later. */
async function removeLeftovers(parent: string, prefix: string): Promise<void> {
  for (const name of await fs.readdir(parent).catch(() => [] as string[])) {
    const pid = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid !== undefined && !processRunning(Number(pid)))
      await fs.rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Makes `<parent>/<prefix><pid>-<random>` after removing the leftovers of dead queries beside it. */
async function makeIn(parent: string, prefix: string): Promise<QueryTemp> {
  await removeLeftovers(parent, prefix);
  const dir = path.join(parent, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(dir);
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * A new temporary folder for a query on OUT: under OUT/tmp, or under os.tmpdir() when OUT cannot be
 * written (read-only media, no permission, full disk). The caller removes it when the query ends.
 */
export async function createQueryTemp(outDir: string): Promise<QueryTemp> {
  try {
    await fs.rm(path.join(outDir, 'fleet.duckdb.tmp'), { recursive: true, force: true }).catch(() => undefined);
    const parent = path.join(outDir, 'tmp');
    await fs.mkdir(parent, { recursive: true });
    return await makeIn(parent, IN_OUT);
  } catch {
    return makeIn(os.tmpdir(), IN_SYSTEM_TMP);
  }
}
