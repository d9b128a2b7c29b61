/**
 * Host images read through a member listing: archives (`.zip`, `.tar`, `.tar.gz`, `.tgz`) and unpacked
 * Velociraptor collections (a folder with the collector's metadata beside `uploads/`, or a hunt download's
 * folder with `hunt_info.json`). Each one's listing is read (or taken from `OUT/state/archives/` when the
 * archive's size and mtime are those recorded, so an unchanged archive is not opened again), a hunt
 * download split into one image per client, each image named by its collection's own metadata where it
 * has some, and a private folder made to copy its members into (load/staging.ts). An archive that cannot
 * be listed, or whose members are encrypted and no password given opens, is an image with no listing and
 * the reason: one `parser:` row, and its status in `hosts` (`unreadable`, `encrypted`).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HUNT_MARKER, type LogicalListing, logicalListing, velociraptorLayout } from '../discover/collection.js';
import type { CollectionImage, HostImage } from '../discover/discover.js';
import { type ArchiveFormat, type ArchiveMember, archiveFormatOf, listMembers, readSmallMember } from '../evidence/archive.js';
import { makePrivateFolder, releasePrivateFolder } from '../evidence/private-folders.js';
import { memberText } from '../core/row.js';
import { passwordFor } from '../evidence/zip-password.js';
import {
  clientFolderName,
  encryptedMessage,
  hostnameOf,
  imageKey,
  previousHostNames,
  velociraptorContainer,
} from './collection-names.js';

/** What `OUT/state/archives/<sha256 of the path>.json` records of one archive. */
interface ListingCache {
  /** 2: hostnames by collection folder, members with their encryption. Other records are read again. */
  version: 2;
  path: string;
  size: number;
  mtime_ms: number;
  members: ArchiveMember[];
  /** The `client_info.json` host name of each collection folder of the listing ('' at its top). */
  hostnames: Record<string, string | null>;
}

/** A listing read for an image of this load, to record once OUT is locked. */
export interface OpenedCollection {
  image: HostImage;
  cache: ListingCache | null;
  /** The image's name was given (`--host NAME=PATH`). */
  named: boolean;
}

function cacheFile(out: string, archive: string): string {
  return path.join(out, 'state', 'archives', `${createHash('sha256').update(path.resolve(archive)).digest('hex')}.json`);
}

async function readCache(out: string, archive: string, size: number, mtime: number): Promise<ListingCache | null> {
  const text = await fs.readFile(cacheFile(out, archive), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const c = JSON.parse(text) as ListingCache;
    return c.version === 2 && c.size === size && c.mtime_ms === mtime && Array.isArray(c.members) ? c : null;
  } catch {
    return null;
  }
}

/** Records the listings read by this load (by rename); a listing is only a shortcut, so a failure is ignored. */
export async function saveListings(out: string, opened: readonly OpenedCollection[]): Promise<void> {
  const saved = new Set<string>();
  for (const { cache } of opened) {
    if (cache === null || saved.has(cache.path)) continue; // a hunt's clients share one listing
    saved.add(cache.path);
    const file = cacheFile(out, cache.path);
    await fs.mkdir(path.dirname(file), { recursive: true }).catch(() => {});
    await fs.writeFile(`${file}.tmp`, JSON.stringify(cache)).catch(() => {});
    await fs.rename(`${file}.tmp`, file).catch(() => {});
  }
}

/** Whether a folder's top holds a Velociraptor collection or hunt download (its entries only, and those of its child folders). */
async function isCollectionFolder(root: string): Promise<boolean> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const names = new Set(entries.map((e) => e.name));
  if (names.has(HUNT_MARKER)) return true;
  if (names.has('uploads') && velociraptorLayout(names).prefixes[0] === '') return true;
  for (const child of entries.filter((e) => e.isDirectory())) {
    const inner = new Set(await fs.readdir(path.join(root, child.name)).catch(() => [] as string[]));
    if (inner.has('uploads') && velociraptorLayout(inner).prefixes[0] === '') return true;
  }
  return false;
}

/** The format an image is read in: an archive's, `folder` for an unpacked Velociraptor collection, null for a plain folder. */
async function formatOf(root: string): Promise<ArchiveFormat | null> {
  const st = await fs.stat(root).catch(() => null);
  if (st?.isFile()) return archiveFormatOf(root);
  if (!st?.isDirectory()) return null;
  return (await isCollectionFolder(root)) ? 'folder' : null;
}

/** The `client_info.json` host name of each collection folder of a listing. */
async function collectionHostnames(
  root: string,
  format: ArchiveFormat,
  members: readonly ArchiveMember[],
  password?: string,
): Promise<Record<string, string | null>> {
  const names: Record<string, string | null> = {};
  for (const prefix of velociraptorLayout(new Set(members.map((m) => m.name))).prefixes)
    names[prefix] = hostnameOf(await readSmallMember(root, format, `${prefix}client_info.json`, password));
  return names;
}

/** One image per collection of a listing: the clients of a hunt download, else the archive as one image. */
function splitImages(image: HostImage, named: boolean, collection: CollectionImage, cache: ListingCache): HostImage[] {
  const members = cache.members;
  const layout = velociraptorLayout(new Set(members.map((m) => m.name)));
  if (!layout.hunt) {
    const prefix = layout.prefixes[0] ?? null;
    const listing = logicalListing(members, prefix);
    const host = named ? image.host : ((prefix === null ? null : cache.hostnames[prefix]) ?? image.host);
    return [{ host, hostname: host, root: image.root, collection: { ...collection, listing } }];
  }
  return layout.prefixes.map((prefix, i): HostImage => {
    const own = cache.hostnames[prefix] ?? clientFolderName(prefix);
    // a member that lies in no client folder is reported once, with the first client
    const listing: LogicalListing = logicalListing(members, prefix, i === 0);
    const host = named ? `${image.host}/${own}` : own;
    return { host, hostname: host, root: image.root, collection: { ...collection, listing, folder: prefix.slice(0, -1) } };
  });
}

/** The image of an archive read no further (unlistable, encrypted), named as the last load named it where it can be. */
function faultImage(image: HostImage, collection: CollectionImage): HostImage {
  return { host: image.host, hostname: image.host, root: image.root, collection: { ...collection, listing: null } };
}

/**
 * The images with their collections listed. `named` holds the images whose host name was given
 * (`--host NAME=PATH`): the others take the collection's Hostname where it records one, and a hunt
 * download's clients each their own (given a name, a client is `NAME/<its name>`). `passwords`
 * (`--zip-password-file`) are tried on a zip whose members are encrypted. An archive that cannot be
 * read keeps its file name (or the name the last load gave it, when not given one) and carries the
 * error, for a `parser:` row.
 */
export async function openCollections(
  images: readonly HostImage[],
  named: ReadonlySet<HostImage>,
  out: string,
  passwords: readonly string[] = [],
): Promise<OpenedCollection[]> {
  const opened: OpenedCollection[] = [];
  for (const image of images) {
    const format = await formatOf(image.root);
    if (format === null) {
      opened.push({ image: { ...image, hostname: image.host }, cache: null, named: named.has(image) });
      continue;
    }
    const st = await fs.stat(image.root);
    const archive = { path: image.root, format, size: st.size, mtime_ms: Math.trunc(st.mtimeMs) };
    const collection: CollectionImage = { archive, stagingRoot: '', listing: null, error: null };
    // a folder is listed on every load (its files are stat'ed one by one, as a folder image's are)
    let cache = format === 'folder' ? null : await readCache(out, image.root, archive.size, archive.mtime_ms);
    let fresh = false;
    if (cache === null) {
      try {
        const members = await listMembers(image.root, format);
        cache = { version: 2, ...archive, members, hostnames: {} };
        fresh = format !== 'folder';
      } catch (err) {
        collection.error = (err as Error).message;
        opened.push({ image: faultImage(image, collection), cache: null, named: named.has(image) });
        continue;
      }
    }
    if (cache.members.some((m) => m.kind === 'file' && m.encrypted)) {
      // read again on every load: its names depend on the password given
      const container = await velociraptorContainer(image.root, cache.members);
      const first = cache.members.find((m) => m.kind === 'file' && m.encrypted)!;
      const password = container === null ? await passwordFor(image.root, first.name, passwords) : null;
      if (password === null) {
        collection.encrypted = true;
        collection.error = container ?? encryptedMessage(image.root, cache.members, passwords.length);
        opened.push({ image: faultImage(image, collection), cache: null, named: named.has(image) });
        continue;
      }
      collection.password = password;
      cache = { ...cache, hostnames: await collectionHostnames(image.root, format, cache.members, password) };
      fresh = false;
    } else if (fresh || format === 'folder') {
      cache.hostnames = await collectionHostnames(image.root, format, cache.members);
    }
    for (const client of splitImages(image, named.has(image), collection, cache))
      opened.push({ image: client, cache: fresh ? cache : null, named: named.has(image) });
  }
  await nameFaultyImages(opened, out);
  return opened;
}

/** Gives each image that could not be read the host name the last load of OUT gave it, unless a name was given. */
async function nameFaultyImages(opened: OpenedCollection[], out: string): Promise<void> {
  const faulty = opened.filter((o) => o.image.collection?.listing === null && !o.named);
  const previous = await previousHostNames(out, new Set(faulty.map((o) => imageKey(o.image.root, null))));
  for (const o of faulty) {
    const host = previous.get(imageKey(o.image.root, null));
    if (host !== undefined) o.image = { ...o.image, host, hostname: host };
  }
}

/** Gives each collection image its private folder (`$TMPDIR/clinetrail-sqlite-<pid>-XXXXXX`, evidence/private-folders.ts). */
export function makeStagingFolders(images: readonly HostImage[]): void {
  for (const image of images) if (image.collection) image.collection.stagingRoot = makePrivateFolder(os.tmpdir());
}

/** A path of an image as the evidence names it: `file`, or for a member of a collection its archive and member. */
export interface EvidenceName {
  /** The path as printed: the file as found, or `ARCHIVE!MEMBER` (core/row.ts memberText). */
  file: string;
  archive?: string;
  member?: string;
}

/**
 * The evidence's name of a path discovery or staging found in `image`: a path in a collection's private
 * folder is the member of the archive it stands for (the member as stored; a folder, which may be no
 * member of its own, by its logical path). Any other path is its own name.
 */
export function evidenceName(image: HostImage, file: string): EvidenceName {
  const collection = image.collection;
  if (!collection?.listing || collection.stagingRoot === '') return { file };
  const rel = path.relative(collection.stagingRoot, file).split(path.sep).join('/');
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { file };
  const member = collection.listing.files.get(rel)?.name ?? collection.listing.others.get(rel)?.name ?? rel;
  return { file: memberText(collection.archive.path, member), archive: collection.archive.path, member };
}

/** Removes a collection image's private folder, with every member copied into it. */
export function releaseStaging(image: HostImage): void {
  if (image.collection?.stagingRoot) releasePrivateFolder(image.collection.stagingRoot);
}
