/**
 * The image-relative ("logical") paths of a listing's members. In a Velociraptor collection (found by its
 * own metadata files), uploads lie at `uploads/<accessor>/<path>`, each path component escaped by the
 * collector (Velocidex/velociraptor `utils/sanitize.go` `SanitizeStringForZip`: `/ \ * ? : | < > % "` and
 * a leading or trailing `.` or space as `%XX`, and bytes that are not UTF-8): the logical path drops
 * `uploads/<accessor>/`, decodes each component, splits the Windows separators a component held, and drops
 * a `\\.\` or `\\?\` device prefix, so `uploads/ntfs/%5C%5C.%5CC%3A/Users/alice` is `C:/Users/alice` and
 * `uploads/auto/home/alice/%2Ecline` is `home/alice/.cline`. Anywhere else a member's path is kept as
 * stored (a literal `%` too). A path that would leave the image (`..`) is never mapped.
 */
import type { ArchiveMember } from '../evidence/archive.js';

/** Metadata files an offline collection holds beside `uploads/`. */
const VELOCIRAPTOR_MARKERS = ['client_info.json', 'collection_context.json', 'uploads.json'];

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
}

/** Where a Velociraptor collection lies in a listing: '' at its top, `x/` one folder down; null when it is none. */
export function velociraptorPrefix(names: ReadonlySet<string>): string | null {
  const prefixes = new Set(['']);
  for (const name of names) {
    const slash = name.indexOf('/');
    if (slash > 0 && name.indexOf('/', slash + 1) === -1) prefixes.add(name.slice(0, slash + 1));
  }
  for (const prefix of prefixes) {
    if (VELOCIRAPTOR_MARKERS.some((m) => names.has(prefix + m))) return prefix;
  }
  return null;
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

/** The logical segments of an upload below `uploads/<accessor>/`, or null when it is not one. */
function uploadSegments(rel: string): string[] | null {
  const segs = rel.split('/');
  if (segs[0] !== 'uploads' || segs.length < 3) return null;
  const decoded = segs.slice(2).map(decodeComponent).join('/').replace(/\\/g, '/');
  return decoded.replace(/^\/\/[.?]\//, '').split('/');
}

/** Segments that stay inside the image, or null. */
function safe(segs: string[] | null): string[] | null {
  if (segs === null) return null;
  const kept = segs.filter((s) => s !== '' && s !== '.');
  return kept.length === 0 || kept.some((s) => s === '..' || s.includes('\0')) ? null : kept;
}

/** Logical path of one member name, or null when it is no part of the image (collection metadata, an unsafe path). */
export function logicalPath(name: string, velociraptor: string | null): string | null {
  if (velociraptor === null) return safe(name.replace(/^(\.\/)+/, '').split('/'))?.join('/') ?? null;
  if (!name.startsWith(velociraptor)) return null;
  return safe(uploadSegments(name.slice(velociraptor.length)))?.join('/') ?? null;
}

/** The listing's members by logical path: the tree discovery walks. */
export function logicalListing(members: readonly ArchiveMember[]): LogicalListing {
  const velociraptor = velociraptorPrefix(new Set(members.map((m) => m.name)));
  const out: LogicalListing = { velociraptor, files: new Map(), dirs: new Set(), others: new Map() };
  for (const member of members) {
    const logical = logicalPath(member.name, velociraptor);
    if (logical === null) continue;
    const segs = logical.split('/');
    for (let i = 1; i < segs.length; i++) out.dirs.add(segs.slice(0, i).join('/'));
    if (member.kind === 'dir') out.dirs.add(logical);
    else if (member.kind === 'file' && !out.files.has(logical)) out.files.set(logical, member);
    else if (member.kind === 'other') out.others.set(logical, member);
  }
  for (const dir of out.dirs) out.files.delete(dir);
  return out;
}
