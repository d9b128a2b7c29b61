/**
 * One load at a time per OUT: `OUT/state/load.lock` holds the pid of the running load. A lock whose
 * pid no longer runs is stale (a killed load) and is taken over.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Raised when another live load holds OUT. */
export class LockHeldError extends Error {}

/** Whether a process with this pid runs (EPERM: it runs under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of OUT or throws LockHeldError; returns the function that releases it. */
export async function acquireLock(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, 'state', 'load.lock');
  await fs.mkdir(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      return async () => {
        await fs.rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(await fs.readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new LockHeldError(`load: another load (pid ${pid}) is writing ${outDir}; wait for it or remove ${file} if that process is gone`);
      }
      await fs.rm(file, { force: true });
    }
  }
  throw new LockHeldError(`load: could not take the lock ${file}`);
}
