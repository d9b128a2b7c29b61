/**
 * The small text files of a git folder: `config` (git-config(1) syntax), `HEAD` and loose refs
 * (`refs/heads/*`: an id, or `ref: <name>`), `packed-refs` (`<id> <name>` lines, `^<id>` lines for the
 * object a tag peels to, `#` comments; refs/packed_backend.c), and reflog lines (`logs/HEAD`:
 * `<old id> <new id> <name> <<email>> <seconds> <±hhmm>\t<message>`; git-reflog(1)).
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openEvidence } from '../../evidence/file-chunks.js';
import { OID, parseSignature, type Signature } from './git-object.js';

/** Largest config, HEAD, ref or packed-refs file read. */
export const MAX_REF_FILE_BYTES = 16 * 1024 * 1024;

/** The text of a small file (UTF-8, invalid bytes as U+FFFD); throws `git: ...` when it is too big. */
export function readSmallText(file: string, maxBytes = MAX_REF_FILE_BYTES): string {
  const fd = openEvidence(file);
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw new Error(`git: file of ${size} bytes is larger than ${maxBytes}, not read`);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return new TextDecoder('utf-8').decode(buf.subarray(0, got));
  } finally {
    closeSync(fd);
  }
}

/** A config value with git's escapes (`\\`, `\"`, `\n`, `\t`, `\b`), quotes and comments resolved; null when malformed. */
function configValue(raw: string): string | null {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (!quoted && (c === '#' || c === ';')) break;
    if (c === '"') {
      quoted = !quoted;
      out += pendingSpace;
      pendingSpace = '';
    } else if (c === '\\') {
      const e = raw[++i];
      const escaped: Record<string, string> = { '\\': '\\', '"': '"', n: '\n', t: '\t', b: '\b' };
      if (e === undefined || escaped[e] === undefined) return null;
      out += pendingSpace + escaped[e];
      pendingSpace = '';
    } else if (!quoted && (c === ' ' || c === '\t')) {
      if (out !== '') pendingSpace += c;
    } else {
      out += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return quoted ? null : out;
}

/**
 * The values of a config file by `section.key` (`section.subsection.key`), lower case but for the
 * subsection, the last one winning as in git; and the numbers of the lines that could not be read.
 */
export function parseConfig(text: string): { values: Map<string, string>; badLines: number[] } {
  const values = new Map<string, string>();
  const badLines: number[] = [];
  let section: string | null = null;
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const header = /^\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*(?:[#;].*)?$/.exec(line);
    if (header !== null) {
      section =
        header[2] === undefined ? header[1].toLowerCase() : `${header[1].toLowerCase()}.${header[2].replace(/\\(.)/g, '$1')}`;
      return;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    const value = entry === null ? null : entry[2] === undefined ? 'true' : configValue(entry[2]);
    if (section === null || entry === null || value === null) {
      badLines.push(i + 1);
      return;
    }
    values.set(`${section}.${entry[1].toLowerCase()}`, value);
  });
  return { values, badLines };
}

/** A HEAD or loose ref file: an object id, or the name of the ref it points to; null when it is neither. */
export function parseRefFile(text: string): { oid: string } | { target: string } | null {
  const line = text.split('\n')[0].replace(/\r$/, '').trim();
  if (OID.test(line)) return { oid: line };
  const m = /^ref:\s*(\S+)$/.exec(line);
  return m === null ? null : { target: m[1] };
}

/** The refs of a packed-refs file (peeled `^` lines name the tagged object, also a tip), and the numbers of bad lines. */
export function parsePackedRefs(text: string): { refs: { name: string; oid: string }[]; badLines: number[] } {
  const refs: { name: string; oid: string }[] = [];
  const badLines: number[] = [];
  let last = '';
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) return;
    const peeled = /^\^([0-9a-f]{40})$/.exec(line);
    const ref = /^([0-9a-f]{40}) (\S+)$/.exec(line);
    if (peeled !== null && last !== '') refs.push({ name: `${last}^{}`, oid: peeled[1] });
    else if (ref !== null) {
      last = ref[2];
      refs.push({ name: ref[2], oid: ref[1] });
    } else badLines.push(i + 1);
  });
  return { refs, badLines };
}

/** One reflog entry: HEAD (or a branch) moved from `old` to `new`. */
export interface ReflogEntry {
  /** All zeros when the ref did not exist before. */
  old: string;
  new: string;
  who: Signature;
  /** `commit: <subject>`, `commit (initial): ...`, `reset: moving to <rev>`, `checkout: ...`, ... */
  message: string;
}

/** One reflog line, or null when it does not have the form git writes. */
export function parseReflogLine(line: string): ReflogEntry | null {
  const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) ([^\t]*)(?:\t(.*))?$/.exec(line);
  if (m === null) return null;
  const who = parseSignature(m[3]);
  return who === null ? null : { old: m[1], new: m[2], who, message: m[4] ?? '' };
}
