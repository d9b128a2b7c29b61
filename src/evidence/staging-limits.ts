/**
 * How much the members a load copies out of an archive may inflate in its private folder under TMPDIR
 * (evidence/archive.ts copyMembers, load/staging.ts): a limit per member and one per archive (the members
 * of one host image a load reads again). A 315 KB zip can hold a 100 MB member, and a zip bomb far more:
 * without a limit it fills TMPDIR, and every other program on the machine with it.
 *
 * Reaching a limit is an own fault (core/own-fault.ts), like TMPDIR itself being full: it ends the load
 * with exit 1 and one line naming the archive, the member and the limit, and writes no partition for it,
 * so the next load with a higher limit reads it. It is not recorded as evidence: the limit is a resource
 * the user sets, and a member cut there would leave a partition short of rows that the next load skips.
 *
 * The limits are read from the environment, in the sizes DuckDB's settings take (`500MB`, `4GB`, `2GiB`).
 */
import { OwnFault } from '../core/own-fault.js';

/** Environment variable that sets the limit of one member's inflated bytes. */
export const MEMBER_MAX_ENV = 'CLINETRAIL_STAGING_MEMBER_MAX';
/** Environment variable that sets the limit of the inflated bytes of the members copied from one archive. */
export const ARCHIVE_MAX_ENV = 'CLINETRAIL_STAGING_MAX';

/**
 * Defaults: 4GB a member, four times the largest transcript the bench loads (a 1 GB `ui_messages.json`,
 * docs/BENCHMARKS.md); 16GB an archive, four such members, far above the Cline files of any home seen
 * (the bench's 200 homes hold 2.1 GB together), and within the free space of a common TMPDIR.
 */
const DEFAULTS = { member: '4GB', archive: '16GB' } as const;

/** One limit: its bytes, and its text as set (for the messages). */
export interface SizeLimit {
  bytes: number;
  text: string;
  env: string;
}

export interface StagingLimits {
  member: SizeLimit;
  archive: SizeLimit;
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** Bytes of a size such as `500MB`, `4GB`, `2GiB`, `1048576` (KB, MB, ... decimal, KiB, MiB, ... binary); null when it is none. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : null;
}

function limitOf(env: NodeJS.ProcessEnv, name: string, fallback: string): SizeLimit {
  const set = env[name];
  const text = set === undefined || set === '' ? fallback : set;
  const bytes = parseSize(text);
  if (bytes === null) throw new Error(`${name} wants a size of at least 1 byte such as 500MB or 4GB, got '${text}'`);
  return { bytes, text, env: name };
}

/** The limits the environment sets; throws an Error naming the variable when one is not a size. */
export function stagingLimits(env: NodeJS.ProcessEnv = process.env): StagingLimits {
  return { member: limitOf(env, MEMBER_MAX_ENV, DEFAULTS.member), archive: limitOf(env, ARCHIVE_MAX_ENV, DEFAULTS.archive) };
}

/** The OwnFault of a member (`memberName`, as printed: core/row.ts memberText) that went beyond `limit`. */
export function stagingLimitFault(limit: SizeLimit, memberName: string): OwnFault {
  const what = limit.env === MEMBER_MAX_ENV ? 'the member inflates' : 'the members copied from its archive inflate';
  return new OwnFault(
    `load: staging limit reached while copying ${memberName}: ${what} beyond ${limit.env}=${limit.text}; ` +
      `no partition was written for it: set ${limit.env} higher (and make room in TMPDIR), and load again`,
    limit.env,
  );
}
