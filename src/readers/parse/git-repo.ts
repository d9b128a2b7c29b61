/**
 * One git folder (`.../.git`) read without git: its config, its refs (HEAD, `refs/...`, packed-refs),
 * its object database (loose objects, packs and their indexes), and every commit it holds, reachable
 * or not. What cannot be read is a RepoProblem naming the file (and the pack position or line), and the
 * rest is read on.
 */
import { type Commit, OID, parseCommit } from './git-object.js';
import { looseObjectId } from './git-loose.js';
import {
  GitObjectError,
  type ObjectPlace,
  type ObjectStore,
  everyObject,
  newObjectStore,
  placeOf,
  placeType,
  readObject,
} from './git-odb.js';
import { readPackIndex } from './git-pack-index.js';
import { closePack, openPack, type PackFile, packChecksumProblem } from './git-pack.js';
import { parseConfig, parsePackedRefs, parseRefFile, readSmallText } from './git-refs.js';

/** Faults of objects reported one by one per file; a damaged pack can fail every object after the damage. */
const MAX_PROBLEMS_PER_FILE = 100;

/** A fault of the git folder: the file, the 1-based line (or pack position), and what is wrong. */
export interface RepoProblem {
  file: string;
  line: number | null;
  message: string;
}

export interface GitRepo {
  /** Its files by path relative to the git folder (`HEAD`, `objects/pack/pack-1.idx`), absolute paths as values. */
  files: ReadonlyMap<string, string>;
  /** config values by `section.key` (git-refs.ts parseConfig). */
  config: ReadonlyMap<string, string>;
  store: ObjectStore;
  /** Object ids HEAD and the refs point to. */
  refTips: string[];
}

/** What a caller learns of a fault: a RepoProblem, from a GitObjectError or any error reading `file`. */
export function problemOf(err: unknown, file: string, line: number | null = null): RepoProblem {
  if (err instanceof GitObjectError)
    return { file: err.file ?? file, line: err.file === null ? line : err.ordinal, message: err.message };
  return { file, line, message: (err as Error).message };
}

function readConfig(files: ReadonlyMap<string, string>, problems: RepoProblem[]): Map<string, string> {
  const file = files.get('config');
  if (file === undefined) return new Map();
  try {
    const { values, badLines } = parseConfig(readSmallText(file));
    for (const line of badLines)
      problems.push({ file, line, message: 'config line not read: not a section, key or value git writes' });
    return values;
  } catch (err) {
    problems.push(problemOf(err, file));
    return new Map();
  }
}

async function openPacks(files: ReadonlyMap<string, string>, problems: RepoProblem[]): Promise<PackFile[]> {
  const packs: PackFile[] = [];
  for (const [rel, idx] of files) {
    const m = /^objects\/pack\/(.+)\.idx$/.exec(rel);
    if (m === null) continue;
    const packFile = files.get(`objects/pack/${m[1]}.pack`);
    if (packFile === undefined) {
      problems.push({ file: idx, line: null, message: 'pack index without its pack: the objects it lists are not read' });
      continue;
    }
    let pack: PackFile;
    try {
      pack = openPack(packFile, readPackIndex(idx));
    } catch (err) {
      const onIndex = (err as Error).message.startsWith('git pack index');
      problems.push({
        ...problemOf(err, onIndex ? idx : packFile),
        message: `${(err as Error).message}: the pack's objects are not read`,
      });
      continue;
    }
    packs.push(pack);
    const damage = await packChecksumProblem(pack).catch((err: Error) => `pack not read to its end (${err.message})`);
    if (damage !== null) problems.push({ file: packFile, line: null, message: damage });
  }
  for (const [rel, file] of files) {
    const m = /^objects\/pack\/(.+)\.pack$/.exec(rel);
    if (m !== null && !files.has(`objects/pack/${m[1]}.idx`)) {
      problems.push({ file, line: null, message: 'pack without its index (.idx): its objects are not read' });
    }
  }
  return packs;
}

/** The ids HEAD, the loose refs and packed-refs point to; a ref naming nothing or malformed is a problem. */
function readRefTips(files: ReadonlyMap<string, string>, problems: RepoProblem[]): string[] {
  const tips: string[] = [];
  for (const [rel, file] of files) {
    const isRef = rel === 'HEAD' || rel.startsWith('refs/');
    if (!isRef && rel !== 'packed-refs') continue;
    try {
      const text = readSmallText(file);
      if (rel === 'packed-refs') {
        const { refs, badLines } = parsePackedRefs(text);
        tips.push(...refs.map((r) => r.oid));
        for (const line of badLines)
          problems.push({ file, line, message: 'packed-refs line not read: not `<id> <ref>` or `^<id>`' });
        continue;
      }
      const ref = parseRefFile(text);
      if (ref === null) problems.push({ file, line: 1, message: 'ref not read: neither an object id nor `ref: <name>`' });
      else if ('oid' in ref) tips.push(ref.oid);
    } catch (err) {
      problems.push(problemOf(err, file));
    }
  }
  return tips;
}

/**
 * Opens a git folder from its files (root-relative path → absolute path); never throws for bad input:
 * each fault is pushed to `problems`. Close it with closeRepo.
 */
export async function openRepo(files: ReadonlyMap<string, string>, problems: RepoProblem[]): Promise<GitRepo> {
  const config = readConfig(files, problems);
  const loose = new Map<string, string>();
  for (const [rel, file] of files) {
    const oid = looseObjectId(rel);
    if (oid !== null) loose.set(oid, file);
  }
  const packs = await openPacks(files, problems);
  return { files, config, store: newObjectStore(loose, packs), refTips: readRefTips(files, problems) };
}

export function closeRepo(repo: GitRepo): void {
  for (const pack of repo.store.packs) closePack(pack);
}

/** A commit of the repository and where it was read from. */
export interface FoundCommit {
  oid: string;
  commit: Commit;
  place: ObjectPlace;
}

/**
 * Every commit the object database holds, once each, whatever reaches it: the type of every object is
 * read (a pack entry's header, a loose object's first bytes), and each commit is read and checked whole.
 * Trees and blobs are not read here. A fault of an object is a problem of its file, and the scan goes on.
 */
export function* everyCommit(repo: GitRepo, problems: RepoProblem[]): Generator<FoundCommit> {
  const done = new Set<string>();
  const perFile = new Map<string, number>();
  for (const { oid, place } of everyObject(repo.store)) {
    if (done.has(oid)) continue;
    let commit: Commit;
    try {
      if (placeType(repo.store, place, oid) !== 'commit') continue;
      done.add(oid);
      commit = parseCommit(readObject(repo.store, oid, 'commit').content);
    } catch (err) {
      const at = placeOf(place);
      const problem = problemOf(err, at.file, at.ordinal);
      const count = (perFile.get(problem.file) ?? 0) + 1;
      perFile.set(problem.file, count);
      if (count <= MAX_PROBLEMS_PER_FILE) problems.push(problem);
      continue;
    }
    yield { oid, commit, place };
  }
  for (const [file, count] of perFile) {
    if (count > MAX_PROBLEMS_PER_FILE) {
      problems.push({
        file,
        line: null,
        message: `${count - MAX_PROBLEMS_PER_FILE} more objects not read for faults of this file`,
      });
    }
  }
}

/** The commits reachable from `tips` through parents, among `commits` (a missing commit ends its line). */
export function reachableFrom(tips: readonly string[], commits: ReadonlyMap<string, Commit>): Set<string> {
  const seen = new Set<string>();
  const stack = tips.filter((t) => OID.test(t));
  while (stack.length > 0) {
    const oid = stack.pop() as string;
    if (seen.has(oid)) continue;
    const commit = commits.get(oid);
    if (commit === undefined) continue;
    seen.add(oid);
    stack.push(...commit.parents);
  }
  return seen;
}
