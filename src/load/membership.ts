/**
 * Which partitions a load takes out of the warehouse. A load updates the hosts it was given and keeps
 * every other host as it is, so collections can be added one at a time; `--prune` withdraws the hosts
 * not in the input. A given host whose image yields no Cline store (an unmounted disk, a half-copied
 * collection, an encoded tree) keeps what the warehouse holds of it unless `--accept-empty HOST` says the
 * empty image is the truth. A given host whose image could not be read at all (an encrypted or
 * unreadable archive, an image not searched) keeps it whatever: nothing says the image is empty. Within a
 * host that yielded stores, a store no longer found is withdrawn.
 * A shard load decides all of that among the hosts of its shard only.
 */
import { partitionDirs, partitionStore } from '../core/layout.js';
import { readManifest } from '../core/manifest.js';

export interface MembershipInput {
  out: string;
  /** Host names of the input, in order. */
  given: readonly string[];
  /** Partition folders this load wrote or kept unchanged. */
  current: ReadonlySet<string>;
  /** Hosts of the input that yielded at least one Cline store (not only discovery problems). */
  found: ReadonlySet<string>;
  /** Hosts of the input whose image could not be read at all: their partitions are kept, but for those written now. */
  unread?: ReadonlySet<string>;
  prune: boolean;
  acceptEmpty: ReadonlySet<string>;
  /**
   * The hosts this load may withdraw or report absent: those of its shard (load/shard.ts). The
   * partitions of other hosts belong to the other shards' loads and are left alone, `--prune` or not.
   */
  mine?: (host: string) => boolean;
}

export interface MembershipPlan {
  /** Partition folders to withdraw from the next warehouse. */
  withdraw: string[];
  /** Hosts the warehouse holds that are not in the input (kept, or withdrawn with prune). */
  absent: string[];
  /** Hosts of the input with an empty image whose earlier data is kept. */
  keptEmpty: string[];
}

/** What a load found in a host image of its input. */
export type HostStatus = 'loaded' | 'no Cline data' | 'unreadable' | 'encrypted' | 'kept after empty image';

/** The statuses of an image that gave nothing and was not read whole: the load exits 5 (cli/commands.ts). */
export const NOT_READ_STATUSES: readonly HostStatus[] = ['encrypted', 'unreadable'];

/**
 * The status of a given host: `loaded` when it yielded a Cline store; else `encrypted` or `unreadable`
 * when its image could not be read at all (`fault`, its earlier data kept); else `kept after empty image`
 * when the warehouse kept its earlier data, `unreadable` when discovery could not search all of it, and
 * `no Cline data` when it searched everything and found none.
 */
export function hostStatus(
  host: string,
  found: ReadonlySet<string>,
  keptEmpty: readonly string[],
  hadProblems: boolean,
  fault: HostStatus | null = null,
): HostStatus {
  if (found.has(host)) return 'loaded';
  if (fault !== null) return fault;
  if (keptEmpty.includes(host)) return 'kept after empty image';
  return hadProblems ? 'unreadable' : 'no Cline data';
}

export async function planMembership(input: MembershipInput): Promise<MembershipPlan> {
  const given = new Set(input.given);
  const mine = input.mine ?? (() => true);
  // the host of a partition is its manifest's: a long host name's folder is cut (core/layout.ts hostDirName)
  const hostOf = new Map<string, string>();
  for (const dir of await partitionDirs(input.out)) {
    const host = readManifest(dir)?.host;
    if (host !== undefined && mine(host)) hostOf.set(dir, host);
  }
  const folders = [...hostOf.keys()];
  const partitionHost = (dir: string) => hostOf.get(dir)!;
  // what the warehouse holds of each host: partitions of Cline stores (a discovery partition is no data)
  const held = new Set(folders.filter((dir) => partitionStore(dir) !== 'discovery').map(partitionHost));
  const unread = input.unread ?? new Set<string>();
  const keptEmpty = input.given.filter((h) => !input.found.has(h) && !unread.has(h) && held.has(h) && !input.acceptEmpty.has(h));
  const absent = [...new Set(folders.map(partitionHost))].filter((h) => !given.has(h)).sort();
  const keep = new Set([...keptEmpty, ...unread]);
  const withdraw = folders.filter((dir) => {
    if (input.current.has(dir)) return false;
    const host = partitionHost(dir);
    if (!given.has(host)) return input.prune;
    return !keep.has(host);
  });
  return { withdraw, absent, keptEmpty };
}
