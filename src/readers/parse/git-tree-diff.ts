/**
 * The paths that differ between two trees, as `git diff-tree -r --name-status` gives them (A added,
 * M modified, D deleted, T type changed), in git's path order. Blobs are compared by id, never read;
 * subtrees with the same id are skipped. The walk keeps its own stack (no recursion), lists only the
 * first few paths, and stops counting past a bound, so a hostile tree costs bounded time and memory.
 */
import { pathText, type TreeEntry } from './git-object.js';

export type ChangeStatus = 'A' | 'M' | 'D' | 'T';

export interface TreeChanges {
  /** Paths changed, counted up to MAX_DIFF_ENTRIES. */
  count: number;
  /** Whether counting stopped at MAX_DIFF_ENTRIES entries looked at. */
  truncated: boolean;
  /** The first paths changed, in path order (UTF-8, invalid bytes as U+FFFD). */
  listed: { status: ChangeStatus; path: string }[];
}

/** Tree entries looked at by one diff before it stops counting. */
export const MAX_DIFF_ENTRIES = 1_000_000;

interface Item {
  /** Git's sort key: the name's bytes (latin1), with `/` after a tree's name. */
  key: string;
  old: TreeEntry | null;
  new: TreeEntry | null;
}

interface Frame {
  /** The folder's path with its trailing `/` (latin1 bytes), '' at the root. */
  prefix: string;
  items: Item[];
  next: number;
}

function keyOf(entry: TreeEntry): string {
  return entry.isTree ? `${entry.key}/` : entry.key;
}

/** The entries of two versions of a folder paired by name and kind, in git's order. */
function pair(oldEntries: readonly TreeEntry[], newEntries: readonly TreeEntry[]): Item[] {
  const byKey = new Map<string, Item>();
  for (const e of oldEntries) byKey.set(keyOf(e), { key: keyOf(e), old: e, new: null });
  for (const e of newEntries) {
    const item = byKey.get(keyOf(e));
    if (item === undefined) byKey.set(keyOf(e), { key: keyOf(e), old: null, new: e });
    else item.new = e;
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The kind of a non-tree entry: a file, a link or a submodule (its executable bit is a modification, not a type change). */
function fileKind(mode: string): string {
  return mode.startsWith('12') ? 'link' : mode.startsWith('16') ? 'submodule' : 'file';
}

/**
 * The changes from tree `oldTree` to tree `newTree` (null: no tree, so every path of the other is added
 * or deleted). `readTree` gives a tree's entries and throws when it cannot; the throw ends the diff.
 */
export function diffTrees(
  readTree: (oid: string) => readonly TreeEntry[],
  oldTree: string | null,
  newTree: string | null,
  maxListed: number,
): TreeChanges {
  const changes: TreeChanges = { count: 0, truncated: false, listed: [] };
  if (oldTree === newTree) return changes;
  const stack: Frame[] = [
    { prefix: '', items: pair(oldTree ? readTree(oldTree) : [], newTree ? readTree(newTree) : []), next: 0 },
  ];
  let looked = 0;
  const change = (status: ChangeStatus, prefix: string, entry: TreeEntry): void => {
    changes.count += 1;
    if (changes.listed.length < maxListed) changes.listed.push({ status, path: pathText(prefix + entry.key) });
  };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.items.length) {
      stack.pop();
      continue;
    }
    looked += 1;
    if (looked > MAX_DIFF_ENTRIES) {
      changes.truncated = true;
      break;
    }
    const item = frame.items[frame.next++];
    const { old, new: now } = item;
    if (old !== null && now !== null && old.oid === now.oid && old.mode === now.mode) continue;
    if (old?.isTree || now?.isTree) {
      const tree = (now ?? old) as TreeEntry;
      const items = pair(old ? readTree(old.oid) : [], now ? readTree(now.oid) : []);
      stack.push({ prefix: `${frame.prefix}${tree.key}/`, items, next: 0 });
    } else if (old === null) change('A', frame.prefix, now as TreeEntry);
    else if (now === null) change('D', frame.prefix, old);
    else change(fileKind(old.mode) === fileKind(now.mode) ? 'M' : 'T', frame.prefix, now);
  }
  return changes;
}
