/**
 * The image-relative ("logical") paths of a listing's members, and the Velociraptor collections a listing
 * holds. A collection is found by its own metadata files (`client_info.json`, `collection_context.json`,
 * `uploads.json`): at the top (an offline collection, a flow export), one folder down (the same zipped
 * with its folder), or one folder per client beside `hunt_info.json` (a server's hunt download:
 * `<Hostname>-<ClientId>/`, Velocidex/velociraptor `vql/server/downloads/downloads.go`
 * createHuntDownloadFile), each client then an image of its own.
 *
 * In a collection, uploads lie at `uploads/<accessor>/<path>`, each path component escaped by the
 * collector (`utils/sanitize.go` `SanitizeStringForZip`: `/ \ * ? : | < > % "` and a leading or trailing
 * `.` or space as `%XX`, and bytes that are not UTF-8): the logical path drops `uploads/<accessor>/`,
 * decodes each component, splits the Windows separators a component held, and drops a `\\.\` or `\\?\`
 * device prefix, so `uploads/ntfs/%5C%5C.%5CC%3A/Users/alice` is `C:/Users/alice` and
 * `uploads/auto/home/alice/%2Ecline` is `home/alice/.cline`. Anywhere else a member's path is kept as
 * stored (a literal `%` too).
 *
 * A member whose path would leave the image (`..`, absolute, a drive letter, a NUL, a name too long for a
 * path), as stored or once decoded, is never mapped: it is skipped on its own, and listed so the load
 * reports it, while the rest of the archive is read.
 */
import type { ArchiveMember } from '../evidence/archive.js';

/** Metadata files a Velociraptor collection holds beside `uploads/`. */
const VELOCIRAPTOR_MARKERS = ['client_info.json', 'collection_context.json', 'uploads.json'];
/** What a Velociraptor hunt download holds at its top, beside one folder per client. */
export const HUNT_MARKER = 'hunt_info.json';
/** Longest member name mapped, in UTF-8 bytes: Linux's PATH_MAX less room for the private folder it is copied to. */
const MAX_NAME_BYTES = 3072;
/** Longest path component, in UTF-8 bytes (NAME_MAX). */
const MAX_COMPONENT_BYTES = 255;

/** A member that is no path inside the image, and why. */
export interface SkippedMember {
  member: ArchiveMember;
  reason: string;
}

/** A listing's members by their logical path. */
export interface LogicalListing {
  /** The folder of the collection inside the listing ('' or `name/`) when it is a Velociraptor collection, else null. */
  velociraptor: string | null;
  /** Logical path → the member (its raw name, size and time), for the regular files. */
  files: Map<string, ArchiveMember>;
  /** Logical paths of the folders (every parent of a file included). */
  dirs: Set<string>;
  /** Logical paths of members that are neither (links, devices): reported, never read. */
  others: Map<string, ArchiveMember>;
  /** Members whose path would leave the image, as stored or once decoded: each one a `parser:` row. */
  skipped: SkippedMember[];
}

/** The collections of a listing: the folder of each ('' at the top), and whether it is a hunt download. */
export interface CollectionLayout {
  prefixes: string[];
  hunt: boolean;
}

const hasMarker = (names: ReadonlySet<string>, prefix: string) => VELOCIRAPTOR_MARKERS.some((m) => names.has(prefix + m));

/** The folders one level below `prefix` ('' or `x/`) that some name lies in. */
function childFolders(names: ReadonlySet<string>, prefix: string): string[] {
  const found = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const slash = name.indexOf('/', prefix.length);
    if (slash > prefix.length) found.add(name.slice(0, slash + 1));
  }
  return [...found].sort();
}

/**
 * Where the Velociraptor collections of a listing lie: [''] for one collection at its top; the folders
 * one level down that hold a collection's metadata (one collection zipped with its folder, or the clients
 * of a hunt download); else the client folders of a hunt download one folder down (`HUNT/hunt_info.json`,
 * `HUNT/<Hostname>-<ClientId>/`). No prefix: no collection.
 */
export function velociraptorLayout(names: ReadonlySet<string>): CollectionLayout {
  if (hasMarker(names, '')) return { prefixes: [''], hunt: false };
  const top = childFolders(names, '');
  const clients = top.filter((p) => hasMarker(names, p));
  if (clients.length > 0) return { prefixes: clients, hunt: names.has(HUNT_MARKER) || clients.length > 1 };
  for (const hunt of top.filter((p) => names.has(p + HUNT_MARKER))) {
    const inner = childFolders(names, hunt).filter((p) => hasMarker(names, p));
    if (inner.length > 0) return { prefixes: inner, hunt: true };
  }
  return { prefixes: [], hunt: names.has(HUNT_MARKER) };
}

/** Where the first Velociraptor collection lies in a listing ('' at its top, `x/` one folder down), or null. */
export function velociraptorPrefix(names: ReadonlySet<string>): string | null {
  return velociraptorLayout(names).prefixes[0] ?? null;
}

/** `%XX` escapes decoded as bytes, the result read as UTF-8; anything else kept as is. */
export function decodeComponent(component: string): string {
  if (!component.includes('%')) return component;
  const bytes: number[] = [];
  for (let i = 0; i < component.length; i++) {
    const hex = component[i] === '%' ? component.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
      continue;
    }
    const cp = component.codePointAt(i)!;
    if (cp > 0xffff) i += 1;
    bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Why a path (raw, or decoded from a collection) cannot be a path inside the image; null when it can. */
export function unsafePath(name: string): string | null {
  if (name.includes('\0')) return 'its name holds a NUL byte';
  if (name.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'drive-letter path';
  const segs = name.split('/');
  if (segs.includes('..')) return 'path leaves the image (..)';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `name longer than ${MAX_NAME_BYTES} bytes`;
  if (segs.some((s) => Buffer.byteLength(s, 'utf8') > MAX_COMPONENT_BYTES))
    return `a path component longer than ${MAX_COMPONENT_BYTES} bytes`;
  return null;
}

/** The logical segments of an upload below `uploads/<accessor>/`, or null when it is not one. */
function uploadSegments(rel: string): string[] | null {
  const segs = rel.split('/');
  if (segs[0] !== 'uploads' || segs.length < 3) return null;
  const decoded = segs.slice(2).map(decodeComponent).join('/').replace(/\\/g, '/');
  return decoded.replace(/^\/\/[.?]\//, '').split('/');
}

/** The logical path of one member, `null` for no part of the image (collection metadata), or why it is unsafe. */
function mapMember(name: string, velociraptor: string | null): string | null | { unsafe: string } {
  let segs: string[] | null;
  if (velociraptor === null) {
    segs = name.replace(/^(\.\/)+/, '').split('/');
  } else {
    if (!name.startsWith(velociraptor)) return null;
    segs = uploadSegments(name.slice(velociraptor.length));
    if (segs === null) return null;
    // decoded, a component may be `..` (`%2E%2E`, or `%2E%2E%2F` inside one) or hold a NUL (`%00`)
    if (segs.some((s) => s.includes('\0'))) return { unsafe: 'its name holds a NUL byte once decoded' };
    if (segs.includes('..')) return { unsafe: 'path leaves the image (..) once decoded' };
  }
  const kept = segs.filter((s) => s !== '' && s !== '.');
  return kept.length === 0 ? null : kept.join('/');
}

/** Logical path of one member name, or null when it is no part of the image (collection metadata, an unsafe path). */
export function logicalPath(name: string, velociraptor: string | null): string | null {
  if (unsafePath(name) !== null) return null;
  const mapped = mapMember(name, velociraptor);
  return typeof mapped === 'string' ? mapped : null;
}

/**
 * The listing's members by logical path: the tree discovery walks. `velociraptor` is the folder of the
 * collection to map (velociraptorLayout), null for a plain archive. `unsafeOutside`: also list as skipped
 * the unsafe members that lie outside that folder (for one collection of a listing, so that each is
 * reported once).
 */
export function logicalListing(
  members: readonly ArchiveMember[],
  velociraptor: string | null = velociraptorPrefix(new Set(members.map((m) => m.name))),
  unsafeOutside = true,
): LogicalListing {
  const out: LogicalListing = { velociraptor, files: new Map(), dirs: new Set(), others: new Map(), skipped: [] };
  for (const member of members) {
    const raw = unsafePath(member.name);
    if (raw !== null) {
      const mine = velociraptor === null || member.name.startsWith(velociraptor);
      if (member.kind !== 'dir' && (mine || unsafeOutside)) out.skipped.push({ member, reason: raw });
      continue;
    }
    const logical = mapMember(member.name, velociraptor);
    if (logical === null) continue;
    if (typeof logical !== 'string') {
      if (member.kind !== 'dir') out.skipped.push({ member, reason: logical.unsafe });
      continue;
    }
    const segs = logical.split('/');
    for (let i = 1; i < segs.length; i++) out.dirs.add(segs.slice(0, i).join('/'));
    if (member.kind === 'dir') out.dirs.add(logical);
    else if (member.kind === 'file' && !out.files.has(logical)) out.files.set(logical, member);
    else if (member.kind === 'other') out.others.set(logical, member);
  }
  for (const dir of out.dirs) out.files.delete(dir);
  return out;
}
