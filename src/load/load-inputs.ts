/**
 * What a load is given, checked before anything is read or written: the options (`LoadOptions`), the
 * refusals of bad ones (`UsageError`, exit 2) and the host images they name.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFleet, type HostImage } from '../discover/discover.js';
import { rootHolding } from '../core/path-within.js';
import { archiveFormatOf } from '../evidence/archive.js';
import { stagingLimits } from '../evidence/staging-limits.js';
import { openCollections, type OpenedCollection } from './collections.js';
import type { LoadEvent } from './progress.js';
import { parseShard, type Shard, shardText } from './shard.js';

export interface LoadOptions {
  /** Folder whose child folders are host images. */
  fleet?: string;
  /** Host images named explicitly (`--host NAME=PATH`). */
  hosts?: HostImage[];
  /** Output folder: parquet/, fleet.duckdb, state/. */
  out: string;
  /** Partitions written at once, each in its own worker thread (default: 2, the cores of these machines). */
  concurrency?: number;
  /** Read every partition again, even those whose files did not change. */
  full?: boolean;
  /**
   * Store texts with their secrets (`--keep-secrets`). By default every secret in a text is replaced by
   * `[REDACTED:<kind>:<fingerprint>]` and listed in the `secrets` table.
   */
  keepSecrets?: boolean;
  /** Withdraw the hosts the warehouse holds that are not in this input (`--prune`); kept by default. */
  prune?: boolean;
  /**
   * Build the warehouse without running the hunt pack into it (`--no-hunts`): `findings` is then empty and
   * `hunt_runs` says why (hunt/build-hunts.ts). By default a load that rebuilds the models runs the pack.
   */
  noHunts?: boolean;
  /** Hosts whose empty image replaces what the warehouse holds of them (`--accept-empty HOST`). */
  acceptEmpty?: readonly string[];
  /**
   * Load only the hosts of this shard (`--shard K/N`, load/shard.ts), beside the other shards' loads,
   * and leave the models to `clinetrail models`.
   */
  shard?: Shard;
  /** Passwords tried on a zip whose members are encrypted (`--zip-password-file`, one per line). */
  zipPasswords?: readonly string[];
  /**
   * The IANA zone of each host's local clocks (`--host-tz`, cli/host-tz.ts), host → zone: a source's
   * wall-clock times with no zone are read in it (Source.timeZone), and hosts.time_zone records it.
   */
  hostTimeZones?: ReadonlyMap<string, string>;
  /** Progress events (rendered on stderr by the CLI, load/progress.ts). */
  onEvent?: (event: LoadEvent) => void;
}

/** A user error: bad paths or arguments. The CLI prints the message alone and exits 2. */
export class UsageError extends Error {}

/** What is at a path, following links: a folder, something else, or nothing. */
async function kindOf(p: string): Promise<'folder' | 'other' | 'none'> {
  const st = await fs.stat(p).catch(() => null);
  return st === null ? 'none' : st.isDirectory() ? 'folder' : 'other';
}

/**
 * The options that need no file read, checked before anything else: a bad one is refused before OUT is
 * created or touched. An empty `out` would be the current folder, an existing file cannot become one,
 * a concurrency must be a whole number of at least 1, and the staging limits of the environment
 * (evidence/staging-limits.ts) sizes.
 */
export async function checkLoadOptions(options: LoadOptions): Promise<void> {
  if (options.out === '') throw new UsageError("load: --out wants a folder, got ''");
  if ((await kindOf(path.resolve(options.out))) === 'other') throw new UsageError(`load: --out ${options.out} is not a folder`);
  if (options.fleet === '') throw new UsageError("load: --fleet wants a folder, got ''");
  const c = options.concurrency;
  if (c !== undefined && !(Number.isInteger(c) && c >= 1))
    throw new UsageError(`load: --concurrency wants a whole number of at least 1, got ${c}`);
  if (options.shard !== undefined) {
    const checked = parseShard(shardText(options.shard));
    if (typeof checked === 'string') throw new UsageError(`load: ${checked}`);
  }
  try {
    stagingLimits();
  } catch (err) {
    throw new UsageError(`load: ${(err as Error).message}`);
  }
}

/**
 * The host images of a load, checked: every path a folder or an archive, every name given once, none
 * holding OUT. The collections among them are listed here (load/collections.ts), since a collection's own
 * metadata can name its host. A name given twice with `--host` is refused; images that claim one host name otherwise
 * (two collections of one machine, a folder and an archive of one name) are all loaded, apart
 * (distinctNames).
 */
export async function resolveImages(options: LoadOptions): Promise<OpenedCollection[]> {
  const images: HostImage[] = [];
  if (options.fleet !== undefined) {
    const kind = await kindOf(options.fleet);
    if (kind === 'none') throw new UsageError(`load: fleet folder not found: ${options.fleet}`);
    if (kind === 'other') throw new UsageError(`load: --fleet ${options.fleet} is not a folder`);
    images.push(...(await listFleet(options.fleet)));
  }
  const named = new Set<HostImage>();
  const given = new Map<string, string>();
  for (const image of options.hosts ?? []) {
    const kind = await kindOf(image.root);
    if (kind === 'none') throw new UsageError(`load: host image folder not found: ${image.host}=${image.root}`);
    if (kind === 'other' && archiveFormatOf(image.root) === null)
      throw new UsageError(`load: --host ${image.host}=${image.root} is not a folder or an archive (.zip, .tar, .tar.gz, .tgz)`);
    const other = given.get(image.host);
    if (other !== undefined) throw new UsageError(`load: host name given twice: ${image.host} (${other} and ${image.root})`);
    given.set(image.host, image.root);
    images.push(image);
    named.add(image);
  }
  // OUT inside the evidence would be written into it, and read back as a host image by the next load
  const fleet = options.fleet === undefined ? [] : [options.fleet];
  const holder = await rootHolding([...fleet, ...images.map((i) => i.root)], [options.out]);
  if (holder !== null)
    throw new UsageError(
      `load: --out ${options.out} is inside ${holder}, an input of this load (the evidence); put OUT outside it`,
    );
  const opened = await openCollections(images, named, path.resolve(options.out), options.zipPasswords ?? []);
  distinctNames(
    opened.map((o) => o.image),
    new Set(opened.filter((o) => o.named).map((o) => o.image)),
  );
  return opened;
}

/** Byte order of UTF-8 texts: the same on every machine, whatever the locale. */
function utf8Order(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Gives every image a host name of its own. Images that claim one name keep it in `hostname`; the first
 * (a name given with `--host`, else the first by image path and client folder, in byte order) keeps it
 * as its host, and each other one is `NAME#2`, `NAME#3`, ... in that order (skipping a name another
 * image has). A pure function of the input, so every shard of a split names the images alike.
 */
export function distinctNames(images: readonly HostImage[], given: ReadonlySet<HostImage>): void {
  const byName = new Map<string, HostImage[]>();
  for (const image of images) {
    image.hostname ??= image.host;
    byName.set(image.host, [...(byName.get(image.host) ?? []), image]);
  }
  const taken = new Set(byName.keys());
  for (const [name, claim] of byName) {
    if (claim.length < 2) continue;
    const key = (i: HostImage) => `${i.root}\0${i.collection?.folder ?? ''}`;
    claim.sort((a, b) => Number(given.has(b)) - Number(given.has(a)) || utf8Order(key(a), key(b)));
    let n = 2;
    for (const image of claim.slice(1)) {
      while (taken.has(`${name}#${n}`)) n += 1;
      image.host = `${name}#${n}`;
      taken.add(image.host);
    }
  }
}
