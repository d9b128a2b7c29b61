/**
 * Host images read through a member listing: archives (`.zip`, `.tar`, `.tar.gz`, `.tgz`) and unpacked
 * Velociraptor collections (a folder with the collector's metadata beside `uploads/`). Each one's listing
 * is read (or taken from `OUT/state/archives/` when the archive's size and mtime are those recorded, so an
 * unchanged archive is not opened again), its host named by the collection's own metadata where it has
 * some, and a private folder made to copy its members into (load/staging.ts).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logicalListing, velociraptorPrefix } from '../discover/collection.js';
import type { HostImage } from '../discover/discover.js';
import { archiveFormatOf, listMembers, readSmallMember, type ArchiveFormat, type ArchiveMember } from '../evidence/archive.js';
import { makePrivateFolder, releasePrivateFolder } from '../evidence/private-folders.js';
import { memberText } from '../core/row.js';

/** What `OUT/state/archives/<sha256 of the path>.json` records of one archive. */
interface ListingCache {
  path: string;
  size: number;
  mtime_ms: number;
  members: ArchiveMember[];
  hostname: string | null;
}

/** A listing read for an image of this load, to record once OUT is locked. */
export interface OpenedCollection {
  image: HostImage;
  cache: ListingCache | null;
}

function cacheFile(out: string, archive: string): string {
  return path.join(out, 'state', 'archives', `${createHash('sha256').update(path.resolve(archive)).digest('hex')}.json`);
}

async function readCache(out: string, archive: string, size: number, mtime: number): Promise<ListingCache | null> {
  const text = await fs.readFile(cacheFile(out, archive), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const c = JSON.parse(text) as ListingCache;
    return c.size === size && c.mtime_ms === mtime && Array.isArray(c.members) ? c : null;
  } catch {
    return null;
  }
}

/** Records the listings read by this load (by rename); a listing is only a shortcut, so a failure is ignored. */
export async function saveListings(out: string, opened: readonly OpenedCollection[]): Promise<void> {
  for (const { cache } of opened) {
    if (cache === null) continue;
    const file = cacheFile(out, cache.path);
    await fs.mkdir(path.dirname(file), { recursive: true }).catch(() => {});
    await fs.writeFile(`${file}.tmp`, JSON.stringify(cache)).catch(() => {});
    await fs.rename(`${file}.tmp`, file).catch(() => {});
  }
}

/** The format an image is read in: an archive's, `folder` for an unpacked Velociraptor collection, null for a plain folder. */
async function formatOf(root: string): Promise<ArchiveFormat | null> {
  const st = await fs.stat(root).catch(() => null);
  if (st?.isFile()) return archiveFormatOf(root);
  if (!st?.isDirectory()) return null;
  const names = new Set(await fs.readdir(root).catch(() => [] as string[]));
  return names.has('uploads') && velociraptorPrefix(names) === '' ? 'folder' : null;
}

/** `Hostname` of a Velociraptor collection's `client_info.json`, or null. */
async function collectionHostname(root: string, format: ArchiveFormat, members: ArchiveMember[]): Promise<string | null> {
  const prefix = velociraptorPrefix(new Set(members.map((m) => m.name)));
  if (prefix === null) return null;
  const bytes = await readSmallMember(root, format, `${prefix}client_info.json`);
  try {
    const name = (JSON.parse(bytes?.toString('utf8') ?? 'null') as { Hostname?: unknown } | null)?.Hostname;
    return typeof name === 'string' && /^[^/\\\0]+$/.test(name) && name !== '.' && name !== '..' ? name : null;
  } catch {
    return null;
  }
}

/**
 * The images with their collections listed. `named` holds the images whose host name was given
 * (`--host NAME=PATH`): the others take the collection's Hostname where it records one. An archive
 * that cannot be listed keeps its file name and carries the error, for a `parser:` row.
 */
export async function openCollections(
  images: readonly HostImage[],
  named: ReadonlySet<HostImage>,
  out: string,
): Promise<OpenedCollection[]> {
  const opened: OpenedCollection[] = [];
  for (const image of images) {
    const format = await formatOf(image.root);
    if (format === null) {
      opened.push({ image, cache: null });
      continue;
    }
    const st = await fs.stat(image.root);
    const archive = { path: image.root, format, size: st.size, mtime_ms: Math.trunc(st.mtimeMs) };
    // a folder is listed on every load (its files are stat'ed one by one, as a folder image's are)
    let cache = format === 'folder' ? null : await readCache(out, image.root, archive.size, archive.mtime_ms);
    let fresh = false;
    let error: string | null = null;
    if (cache === null) {
      try {
        const members = await listMembers(image.root, format);
        cache = { ...archive, members, hostname: await collectionHostname(image.root, format, members) };
        fresh = format !== 'folder';
      } catch (err) {
        error = (err as Error).message;
      }
    }
    const host = named.has(image) ? image.host : (cache?.hostname ?? image.host);
    const listing = cache === null ? null : logicalListing(cache.members);
    opened.push({
      image: { host, root: image.root, collection: { archive, stagingRoot: '', listing, error } },
      cache: fresh ? cache : null,
    });
  }
  return opened;
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
