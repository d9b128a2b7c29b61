/**
 * Git objects as values: the object header, the object id (SHA-1 of header and content), and the
 * commit and tree formats (git's Documentation/gitformat-*.txt; `git cat-file -p` prints the same).
 * Bytes in, values out; reading the objects' files is git-loose.ts and git-pack.ts.
 */
import { createHash } from 'node:crypto';
import { quoteText } from './quote.js';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** An object's type and content (without the `<type> <size>\0` header). */
export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

/**
 * Largest commit or tree read whole, in bytes, inflated; a delta's base and result are bound the same.
 * Cline's commits are under 1 KiB and a tree holds ~40 bytes per entry, so this is a folder of ~400,000
 * entries; a bigger object is a `parser:` row, never an allocation.
 */
export const MAX_OBJECT_BYTES = 16 * 1024 * 1024;

/** A 40-digit lowercase hex object id (SHA-1; SHA-256 repositories are not read). */
export const OID = /^[0-9a-f]{40}$/;

const TYPES: ReadonlySet<string> = new Set(['commit', 'tree', 'blob', 'tag']);

/** The object id git gives `content` of `type`: SHA-1 of `<type> <size>\0<content>`, hex. */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** The `<type> <size>\0` header at the start of a loose object's inflated bytes; a string says why not. */
export function parseObjectHeader(bytes: Buffer): { type: ObjectType; size: number; headerBytes: number } | string {
  const nul = bytes.indexOf(0, 0);
  const space = bytes.indexOf(0x20, 0);
  if (nul === -1 || nul > 32) return 'no object header (<type> <size>) in the first 32 bytes';
  if (space === -1 || space > nul) return 'object header without a size';
  const type = bytes.toString('latin1', 0, space);
  const sizeText = bytes.toString('latin1', space + 1, nul);
  if (!TYPES.has(type)) return `unknown object type ${JSON.stringify(type.slice(0, 16))}`;
  if (!/^(0|[1-9]\d{0,15})$/.test(sizeText)) return `object size ${JSON.stringify(sizeText.slice(0, 20))} is not a number`;
  return { type: type as ObjectType, size: Number(sizeText), headerBytes: nul + 1 };
}

/** Who made a commit and when: `<name> <<email>> <seconds> <±hhmm>`. */
export interface Signature {
  name: string;
  email: string;
  /** Milliseconds since the Unix epoch, UTC (git records whole seconds). */
  timeMs: number;
  /** The offset of the committer's clock, as recorded (`+0200`): the time above is UTC already. */
  zone: string;
}

export interface Commit {
  tree: string;
  /** First parent first; empty for a root commit. */
  parents: string[];
  author: Signature | null;
  committer: Signature | null;
  /** The message after the headers, without its final newline. */
  message: string;
  /** Author and committer lines that could not be read (their signature is null), as problems to report. */
  badHeaders: string[];
}

const decoder = new TextDecoder('utf-8');

/** A signature line's value, or null when it does not have the form git writes. */
export function parseSignature(text: string): Signature | null {
  const m = /^(.*?) ?<([^<>]*)> (-?\d{1,15}) ([+-]\d{4})$/.exec(text);
  if (m === null) return null;
  const seconds = Number(m[3]);
  if (!Number.isSafeInteger(seconds * 1000)) return null;
  return { name: m[1], email: m[2], timeMs: seconds * 1000, zone: m[4] };
}

/** A commit's headers and message; throws `git commit: ...` when it lacks a tree or a tree or parent line is malformed. */
export function parseCommit(content: Buffer): Commit {
  const text = decoder.decode(content);
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const message = end === -1 ? '' : text.slice(end + 2).replace(/\n$/, '');
  const commit: Commit = { tree: '', parents: [], author: null, committer: null, message, badHeaders: [] };
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig, mergetag)
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? '' : line.slice(space + 1);
    if (key === 'tree' || key === 'parent') {
      if (!OID.test(value)) throw new Error(`git commit: ${key} ${JSON.stringify(value.slice(0, 50))} is not an object id`);
      if (key === 'tree') commit.tree = value;
      else commit.parents.push(value);
    } else if (key === 'author' || key === 'committer') {
      commit[key] = parseSignature(value);
      if (commit[key] === null)
        commit.badHeaders.push(`${key} line ${quoteText(value, 80)} is not \`<name> <<email>> <seconds> <zone>\``);
    }
  }
  if (commit.tree === '') throw new Error('git commit: no tree line');
  return commit;
}

/** One entry of a tree: `<mode> <name>\0<20-byte id>`. */
export interface TreeEntry {
  /** Octal, as stored: `100644`, `100755`, `120000` (link), `160000` (submodule), `40000` (tree). */
  mode: string;
  /** The name's bytes as latin1 (one character per byte, so names compare and key as git's bytes do). */
  key: string;
  oid: string;
  isTree: boolean;
}

/** Whether bytes [start, end) are 5 or 6 octal digits (a regular expression per entry cost a third of a big tree's parse). */
function isMode(bytes: Buffer, start: number, end: number): boolean {
  if (end - start < 5 || end - start > 6) return false;
  for (let i = start; i < end; i++) if (bytes[i] < 0x30 || bytes[i] > 0x37) return false;
  return true;
}

/** The entries of a tree in stored order; throws `git tree: ...` at the first malformed one. */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = space === -1 ? -1 : content.indexOf(0, space);
    if (space === -1 || nul === -1 || nul + 21 > content.length) throw new Error(`git tree: entry at byte ${at} is cut short`);
    const mode = content.toString('latin1', at, space);
    if (!isMode(content, at, space))
      throw new Error(`git tree: entry at byte ${at} has mode ${JSON.stringify(mode.slice(0, 12))}`);
    if (nul === space + 1) throw new Error(`git tree: entry at byte ${at} has no name`);
    entries.push({
      mode,
      key: content.toString('latin1', space + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 21),
      isTree: mode === '40000' || mode === '040000',
    });
    at = nul + 21;
  }
  return entries;
}

/** A path held as latin1 bytes (TreeEntry.key), as UTF-8 text; invalid bytes become U+FFFD. */
export function pathText(key: string): string {
  return decoder.decode(Buffer.from(key, 'latin1'));
}
