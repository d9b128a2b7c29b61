/**
 * What a collection says about itself, read from its metadata files: the host name of a Velociraptor
 * collection (`client_info.json`: `Hostname` in an offline collection, written by the `info()` plugin,
 * `vql/tools/collector/collector_manager.go` storeHostInfo; `hostname` in a server's flow or hunt export,
 * the client record's protobuf JSON, `vql/server/downloads/downloads.go` downloadFlowToZip; Velociraptor's
 * own importer reads it case-insensitively, `vql/tools/collector/import.go`), the encrypted container
 * of its collector (`data.zip` beside an optional `metadata.json`, `reporting/container.go`
 * NewContainerFromWriter), and, for an image whose name cannot be read now (encrypted, unreadable), the
 * name the last load gave the same image.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runsDir } from '../core/layout.js';
import { decodeComponent } from '../discover/collection.js';
import { type ArchiveMember, readSmallMember } from '../evidence/archive.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The `Hostname` (or `hostname`) of a `client_info.json`, or null when it has none usable as a name. */
export function hostnameOf(bytes: Buffer | null): string | null {
  try {
    const info = JSON.parse(bytes?.toString('utf8') ?? 'null') as Record<string, unknown> | null;
    if (info === null || typeof info !== 'object') return null;
    const key = Object.keys(info).find((k) => k.toLowerCase() === 'hostname');
    const name = key === undefined ? undefined : info[key];
    // a lone surrogate (`"\ud800"` in the JSON) would make no file name: as U+FFFD
    return typeof name === 'string' && name.trim() !== '' && !name.includes('\0') ? name.replace(LONE_SURROGATE, '\ufffd') : null;
  } catch {
    return null;
  }
}

/** The host a hunt download's client folder names when its `client_info.json` does not: `<Hostname>-<ClientId>`, decoded. */
export function clientFolderName(prefix: string): string {
  return decodeComponent(prefix.replace(/\/$/, '').split('/').pop() ?? prefix);
}

/**
 * The `error` of a Velociraptor encrypted container (its top: `data.zip`, encrypted, and optionally
 * `metadata.json`), or null when the archive is none. The collector's X509 and PGP schemes seal the
 * container's random password to the server's key (`EncryptedPass` in metadata.json); a collection or hunt
 * exported with a password has no metadata.json.
 */
export async function velociraptorContainer(root: string, members: readonly ArchiveMember[]): Promise<string | null> {
  const top = members.filter((m) => m.kind !== 'dir');
  const data = top.find((m) => m.name === 'data.zip');
  if (!data?.encrypted || top.some((m) => m.name !== 'data.zip' && m.name !== 'metadata.json')) return null;
  let scheme: string | null = null;
  if (top.some((m) => m.name === 'metadata.json')) {
    try {
      const rows = JSON.parse((await readSmallMember(root, 'zip', 'metadata.json'))?.toString('utf8') ?? '[]') as unknown;
      const row = (Array.isArray(rows) ? rows : [rows]).find((r) => typeof (r as { Scheme?: unknown })?.Scheme === 'string');
      scheme = (row as { Scheme: string } | undefined)?.Scheme ?? null;
    } catch {
      scheme = null;
    }
  }
  const how =
    scheme === null
      ? 'data.zip, encrypted with a password'
      : `data.zip, its password sealed to the Velociraptor server's key (metadata.json scheme ${scheme})`;
  return (
    `archive encrypted (${root}): a Velociraptor encrypted container (${how}); ` +
    'unpack it with Velociraptor (`velociraptor unzip --dump_dir DIR`, on the server for a sealed password) and load DIR'
  );
}

/** What a zip whose members are encrypted says when no password given opens it. */
export function encryptedMessage(root: string, members: readonly ArchiveMember[], triedPasswords: number): string {
  const files = members.filter((m) => m.kind === 'file');
  const encrypted = files.filter((m) => m.encrypted);
  const ciphers = [...new Set(encrypted.map((m) => (m.encrypted === 'aes' ? 'AES' : 'ZipCrypto')))].sort().join(', ');
  const what = `${encrypted.length} of ${files.length} file member(s) encrypted (${ciphers})`;
  return triedPasswords === 0
    ? `archive encrypted (${root}): ${what}; give its password with --zip-password-file FILE`
    : `archive encrypted (${root}): ${what}; none of the ${triedPasswords} password(s) of --zip-password-file opens it`;
}

/** `image_path` and `collection` of a run's host image: the key of an image across loads. */
export function imageKey(imagePath: string, folder: string | null | undefined): string {
  return `${imagePath}\0${folder ?? ''}`;
}

/**
 * The host each image (by imageKey) was given by the newest load of OUT that had it: the name of an image
 * whose own cannot be read now, so that its earlier rows are kept under it. Reads the run records,
 * newest first, until every key is found.
 */
export async function previousHostNames(out: string, keys: ReadonlySet<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (keys.size === 0) return found;
  const dir = runsDir(out);
  const names = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.json'))
    .sort()
    .reverse();
  for (const name of names) {
    if (found.size === keys.size) break;
    try {
      const run = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as {
        host_images?: Array<{ host: string; image_path: string; collection?: string | null }>;
      };
      for (const h of run.host_images ?? []) {
        const key = imageKey(h.image_path, h.collection);
        if (keys.has(key) && !found.has(key)) found.set(key, h.host);
      }
    } catch {
      // a run record being written, or not one of ours: no name from it
    }
  }
  return found;
}
