/**
 * The private folders that hold clinetrail's copies of SQLite evidence (evidence/sqlite-copy.ts), under
 * the OS temporary folder. A copy is the whole database, secrets included, so none may outlive its load:
 * - each folder is removed when its copy is closed, and at process exit if a reader was abandoned;
 * - a load killed outright (SIGKILL, power loss) runs neither, so the folder is named with the pid of
 *   its process, `clinetrail-sqlite-<pid>-XXXXXX`, and the next load removes the folders whose pid no
 *   longer runs (`removeStaleCopies`). A folder of a live pid, another load at work, is kept.
 *
 * Kept apart from sqlite-copy.ts so the load's main thread can clean up without loading better-sqlite3.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const PREFIX = 'clinetrail-sqlite-';
/** `clinetrail-sqlite-<pid>-XXXXXX`: a folder of this version, with the pid of the load that made it. */
const NAMED_BY_PID = /^clinetrail-sqlite-(\d+)-[A-Za-z0-9]{6}$/;
/** `clinetrail-sqlite-XXXXXX`: a folder of a version before the pid was in the name. */
const NAMED_BEFORE_PID = /^clinetrail-sqlite-[A-Za-z0-9]{6}$/;
/**
 * A folder of the older naming is removed once nothing in it has changed for this long. Its owner
 * cannot be told from the name, and an older clinetrail may be loading right now; a copy lives only
 * while one database is read, which takes minutes, never a day.
 */
export const UNNAMED_COPY_MAX_AGE_MS = 24 * 3600 * 1000;

/** Private folders not yet closed; removed at process exit if a consumer abandoned a reader. */
const openDirs = new Set<string>();
let exitHook = false;

/** Creates a fresh private folder in `tempRoot`, named with this process's pid and tracked until released. */
export function makePrivateFolder(tempRoot: string): string {
  const dir = fs.mkdtempSync(path.join(tempRoot, `${PREFIX}${process.pid}-`));
  openDirs.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const d of openDirs) fs.rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Removes a private folder made by makePrivateFolder. */
export function releasePrivateFolder(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  openDirs.delete(dir);
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The newest mtime of a folder and its entries (ms), or null when it cannot be read. */
function newestChange(dir: string): number | null {
  try {
    let newest = fs.lstatSync(dir).mtimeMs;
    for (const name of fs.readdirSync(dir)) newest = Math.max(newest, fs.lstatSync(path.join(dir, name)).mtimeMs);
    return newest;
  } catch {
    return null;
  }
}

/**
 * Removes, from `tempRoot`, the private copy folders that killed loads left: those named with a pid
 * that no longer runs, and those of the older naming unchanged for UNNAMED_COPY_MAX_AGE_MS. Only real
 * folders are considered, never a link. Best effort: a folder that cannot be removed (another user's)
 * is left. Returns the names removed. Called at the start of a load (load/run.ts).
 */
export function removeStaleCopies(tempRoot: string = os.tmpdir(), now: number = Date.now()): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(tempRoot, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PREFIX)) continue;
    const pid = NAMED_BY_PID.exec(entry.name)?.[1];
    let stale = false;
    if (pid !== undefined) stale = Number(pid) !== process.pid && !processRunning(Number(pid));
    else if (NAMED_BEFORE_PID.test(entry.name)) {
      const changed = newestChange(path.join(tempRoot, entry.name));
      stale = changed !== null && now - changed > UNNAMED_COPY_MAX_AGE_MS;
    }
    if (!stale) continue;
    try {
      fs.rmSync(path.join(tempRoot, entry.name), { recursive: true, force: true });
      removed.push(entry.name);
    } catch {
      // another user's folder, or already gone: left as it is
    }
  }
  return removed;
}
