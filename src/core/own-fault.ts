/**
 * clinetrail's own faults, told apart from the evidence's. Bad evidence becomes a `parser:` row and the
 * load goes on; but a fault of clinetrail's own temporary folder (full, over quota, read-only, an I/O
 * error) says nothing about the evidence, and recording it as a `parser:` row would store a partition
 * that lacks the file's rows while the next load, seeing the file unchanged, skips it. So an own fault
 * is thrown as an `OwnFault`: every reader and the partition writer let it through, no partition is
 * committed, and the load ends with exit 1 and one `clinetrail:` line naming the fault.
 *
 * Used by the SQLite stores, the only readers that write (their private copies, evidence/sqlite-copy.ts).
 */

/** A fault of clinetrail's own files, not of the evidence: it ends the load, never becomes a `parser:` row. */
export class OwnFault extends Error {
  /** The errno (`ENOSPC`, `EIO`, ...) or SQLite code (`SQLITE_FULL`, ...) behind it. */
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'OwnFault';
    this.code = code;
  }
}

/** Rethrows `err` when it is an own fault; the catch blocks that turn the rest into `parser:` rows call it first. */
export function rethrowOwnFault(err: unknown): void {
  if (err instanceof OwnFault) throw err;
}

/** What an errno says about a folder, for the message. */
function stateOf(code: string): string {
  switch (code) {
    case 'ENOSPC':
      return 'is full';
    case 'EDQUOT':
      return 'is over its disk quota';
    case 'EROFS':
      return 'is read-only';
    case 'EIO':
      return 'had an I/O error';
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be written';
    default:
      return 'failed';
  }
}

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'unknown error';
}

/**
 * The OwnFault of an error writing into clinetrail's own temporary folder `tempRoot` while doing `what`
 * with the evidence file `file`, e.g. `load: own temporary folder /tmp is full (ENOSPC) while copying
 * /cases/h1/.../sessions.db; ...`.
 */
export function ownWriteFault(err: unknown, tempRoot: string, what: string, file: string): OwnFault {
  const code = codeOf(err);
  return new OwnFault(
    `load: own temporary folder ${tempRoot} ${stateOf(code)} (${code}) while ${what} ${file}; no partition was written for it: ` +
      'make room there or point TMPDIR elsewhere, and load again',
    code,
  );
}

/**
 * SQLite result codes that, on a private copy, can only come from clinetrail's own temporary folder:
 * the copy and everything SQLite writes beside it (-shm, -journal, sort spills under TMPDIR) live
 * there. Left out are the I/O codes that describe the bytes read rather than the folder: a short read
 * (a truncated `-wal` or database may report one), CORRUPTFS and DATA (checksums).
 */
const OWN_SQLITE_CODE = /^SQLITE_(FULL|IOERR(?!_(SHORT_READ|CORRUPTFS|DATA)$)|CANTOPEN)/;

/** The OwnFault of an SQLite error on the private copy of `file` in `tempRoot`, or null when it may be the evidence's. */
export function sqliteOwnFault(err: unknown, tempRoot: string, file: string): OwnFault | null {
  const code = codeOf(err);
  if (!OWN_SQLITE_CODE.test(code)) return null;
  const message = err instanceof Error ? err.message : String(err);
  return new OwnFault(
    `load: own temporary folder ${tempRoot}: SQLite failed on the private copy of ${file} (${code}: ${message}); ` +
      'no partition was written for it: check the space and health of that folder, or point TMPDIR elsewhere, and load again',
    code,
  );
}
