/**
 * Velociraptor collections as Velociraptor writes them, member for member, built from homes on disk: an
 * offline collection (the collector's zip), a server's hunt download (one folder per client), and the
 * collector's encrypted container. The layouts, and the Velociraptor source each one follows, are in
 * fixtures/velociraptor/README.md.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { BlobReader, configure, Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import * as yazl from 'yazl';
import { filesUnder, makeControlHost, snapshotTree } from '../hostile/harness.js';
import { REPO } from './source.js';
import { escapeComponent } from './velociraptor-layout.js';

configure({ useWebWorkers: false });

/** One member of a collection: its name as stored, its bytes, its time. */
export interface Member {
  name: string;
  data: Buffer;
  mtime: Date;
}

/** A file a client uploaded: where its bytes are here, and its path on the client (`C:/Users/alice/...`). */
export interface Upload {
  real: string;
  client: string;
  accessor?: string;
}

/** The one time of every file the collections are built from: a zip's DOS time keeps 2 s, a tar's 1 s. */
export const STAMP = new Date('2026-10-01T00:00:00Z');

/** A copy of the demo fleet's folder `rel` (`lnx-u01/home`, or '' for all of it) at `dest`, every file stamped STAMP. */
export function stampedCopy(rel: string, dest: string): string {
  cpSync(path.join(REPO, 'fixtures', 'fleet', ...rel.split('/').filter(Boolean)), dest, { recursive: true });
  for (const f of filesUnder(dest)) utimesSync(path.join(dest, f), STAMP, STAMP);
  return dest;
}

/**
 * A hostile fleet under `work` beside the control host: `fleet/control` links to the control host made
 * alone in `controlFleet` (what expectControlAsAlone compares with), and `bytes()` is every byte of both.
 */
export function fleetWithControl(work: string): { fleet: string; controlFleet: string; bytes: () => unknown } {
  const fleet = path.join(work, 'fleet');
  const controlFleet = path.join(work, 'control-fleet');
  mkdirSync(fleet, { recursive: true });
  symlinkSync(makeControlHost(controlFleet), path.join(fleet, 'control'));
  return {
    fleet,
    controlFleet,
    bytes: () => ({ own: snapshotTree(fleet, (rel) => rel !== 'control'), control: snapshotTree(controlFleet) }),
  };
}

/** The uploads of every file under `dir`, at `clientPrefix/<its path below dir>` on the client. */
export function uploadsOf(dir: string, clientPrefix: string, accessor = 'auto'): Upload[] {
  return filesUnder(dir).map((rel) => ({ real: path.join(dir, rel), client: `${clientPrefix}/${rel}`, accessor }));
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 1));
const jsonl = (rows: unknown[]) => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
/** The `.index` beside a result set: one 8-byte offset per row (file_store/api result sets). */
function indexOf(rows: Buffer): Buffer {
  const offsets: number[] = [];
  let at = 0;
  for (const line of rows.toString('utf8').split('\n').slice(0, -1)) {
    offsets.push(at);
    at += Buffer.byteLength(line) + 1;
  }
  const b = Buffer.alloc(offsets.length * 8);
  for (const [i, o] of offsets.entries()) b.writeBigInt64LE(BigInt(o), i * 8);
  return b;
}

/** What the collection of one client holds: its uploads under `uploads/<accessor>/`, then its result sets and metadata. */
function collectionMembers(
  prefix: string,
  uploads: readonly Upload[],
  artifact: string,
  clientInfo: Record<string, unknown>,
  flowId: string,
  stamp: Date,
): Member[] {
  const members: Member[] = [];
  const uploadRows: unknown[] = [];
  for (const u of uploads) {
    const components = u.client.split('/');
    const accessor = u.accessor ?? 'auto';
    const data = readFileSync(u.real);
    members.push({ name: `${prefix}uploads/${accessor}/${components.map(escapeComponent).join('/')}`, data, mtime: stamp });
    uploadRows.push({
      Timestamp: stamp.toISOString(),
      started: stamp.toISOString(),
      vfs_path: u.client,
      _Components: ['uploads', accessor, ...components],
      file_size: data.length,
      uploaded_size: data.length,
      Type: '',
    });
  }
  const results = jsonl(uploads.map((u) => ({ OSPath: u.client, Size: readFileSync(u.real).length })));
  const log = jsonl([
    { _ts: Math.trunc(stamp.getTime() / 1000), level: 'DEFAULT', message: `Starting collection of ${artifact}\n` },
  ]);
  const uploadsJson = jsonl(uploadRows);
  const context = {
    client_id: clientInfo.client_id ?? '',
    session_id: flowId,
    request: { artifacts: [artifact] },
    create_time: stamp.getTime() * 1e6,
    total_uploaded_files: uploads.length,
    artifacts_with_results: [artifact],
    state: 2,
  };
  const requests = { items: [{ session_id: flowId, request_id: 1, VQLClientAction: { Query: [{ Name: artifact }] } }] };
  const meta = (name: string, data: Buffer) => members.push({ name: prefix + name, data, mtime: stamp });
  meta(`results/${artifact}.json.index`, indexOf(results));
  meta(`results/${artifact}.json`, results);
  meta('log.json.index', indexOf(log));
  meta('log.json', log);
  meta('collection_context.json', json(context));
  meta('requests.json', json(requests));
  meta('client_info.json', json(clientInfo));
  meta('uploads.json.index', indexOf(uploadsJson));
  meta('uploads.json', uploadsJson);
  return members;
}

/**
 * An offline collection (`vql/tools/collector/collector_manager.go`): the uploads, the result sets, then
 * collection_context.json, requests.json and client_info.json, the `info()` plugin's row with `Hostname`.
 */
export function offlineCollection(hostname: string, uploads: readonly Upload[], stamp: Date): Member[] {
  const info = {
    Hostname: hostname,
    OS: 'windows',
    Platform: 'Microsoft Windows 11 Pro',
    HostID: `id-${hostname}`,
    Fqdn: hostname,
    Name: 'velociraptor',
    BuildTime: '',
    build_url: '',
  };
  return collectionMembers('', uploads, 'Windows.Cline.Files', info, 'F.OFFLINE1', stamp);
}

/** One client of a hunt: its name and id on the server and its uploads. */
export interface HuntClient {
  hostname: string;
  clientId: string;
  uploads: readonly Upload[];
  /** The server knew no host name for the client: its client_info.json has none (protobuf JSON omits empty fields). */
  unnamed?: boolean;
}

/**
 * A server's hunt download (`vql/server/downloads/downloads.go` createHuntDownloadFile): hunt_info.json,
 * the combined results (`results/All <artifact>.json`), then each client's flow export in a folder
 * `<Hostname>-<ClientId>`, its client_info.json the client record (`hostname`, `client_id`, lower case).
 */
export function huntDownload(huntId: string, clients: readonly HuntClient[], stamp: Date): Member[] {
  const artifact = 'Windows.Cline.Files';
  const info = { hunt_id: huntId, creator: 'admin', artifacts: [artifact], artifact_sources: [artifact], state: 'STOPPED' };
  const combined = jsonl(
    clients.flatMap((c) => c.uploads.map((u) => ({ OSPath: u.client, ClientId: c.clientId, Fqdn: c.hostname }))),
  );
  const members: Member[] = [
    { name: 'hunt_info.json', data: json(info), mtime: stamp },
    { name: `results/All ${artifact}.json`, data: combined, mtime: stamp },
  ];
  for (const c of clients) {
    const clientInfo = c.unnamed
      ? { client_id: c.clientId }
      : { client_id: c.clientId, hostname: c.hostname, fqdn: c.hostname, system: 'windows' };
    const folder = `${escapeComponent(`${c.hostname}-${c.clientId}`)}/`;
    members.push(...collectionMembers(folder, c.uploads, artifact, clientInfo, `F.${huntId.slice(2)}.H`, stamp));
  }
  return members;
}

/** The members written as a zip by yazl (deflated; ZIP64 when asked). */
export async function zipBytes(members: readonly Member[], zip64 = false): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const m of members) zip.addBuffer(m.data, m.name, { mtime: m.mtime, forceZip64Format: zip64 });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The members written as a zip by zip.js, every member encrypted with WinZip AES-256 (or ZipCrypto). */
export async function encryptedZipBytes(members: readonly Member[], password: string, zipCrypto = false): Promise<Buffer> {
  const writer = new ZipWriter(
    new Uint8ArrayWriter(),
    zipCrypto ? { password, zipCrypto: true } : { password, encryptionStrength: 3 },
  );
  for (const m of members) await writer.add(m.name, new Uint8ArrayReader(new Uint8Array(m.data)), { lastModDate: m.mtime });
  return Buffer.from(await writer.close());
}

/**
 * The collector's encrypted container (`reporting/container.go` NewContainerFromWriter): `metadata.json`
 * (the rows the collector passes, here X509's EncryptedPass, Scheme and PublicKey), then `data.zip`, the
 * collection zip stored whole and encrypted with WinZip AES-256.
 */
export async function encryptedContainer(inner: Buffer, password: string, scheme: string | null): Promise<Buffer> {
  const writer = new ZipWriter(new Uint8ArrayWriter());
  if (scheme !== null) {
    const metadata = [
      {
        EncryptedPass: Buffer.from(`sealed:${password}`).toString('base64'),
        Scheme: scheme,
        PublicKey: '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n',
      },
    ];
    await writer.add('metadata.json', new BlobReader(new Blob([json(metadata)])));
  }
  await writer.add('data.zip', new Uint8ArrayReader(new Uint8Array(inner)), { password, encryptionStrength: 3, level: 0 });
  return Buffer.from(await writer.close());
}

/** The members written as a folder (an unpacked download), each file stamped with its time. */
export function writeTree(dir: string, members: readonly Member[]): void {
  for (const m of members) {
    const file = path.join(dir, ...m.name.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, m.data);
    utimesSync(file, m.mtime, m.mtime);
  }
}
