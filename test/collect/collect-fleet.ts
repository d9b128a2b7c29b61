/**
 * The fleet test/collect/targets.test.ts collects from, and the collections it builds from it.
 *
 * The fleet: the demo fleet's hosts as they are; the real-producer homes (fixtures/real-producer) as
 * users of a Windows, a Linux and a macOS machine (`~/.cline` lies alike on all three); every reader
 * fixture image; and one synthetic machine per OS that plants, at every place Cline's stores lie on that
 * OS, one file for each file pattern of the store specification (core/stores.ts) under each root kind
 * (core/root-kinds.ts). A new store, or a new pattern, thus lands in the synthetic machines, and the
 * test fails until both targets collect it.
 *
 * Windows parts of an image lie in its `C` folder, as in a KAPE tree; the rest is a Unix root.
 */
import { cpSync, createWriteStream, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as yazl from 'yazl';
import { globsRegExp } from '../../src/core/glob.js';
import { ROOT_KINDS, type RootKindId } from '../../src/core/root-kinds.js';
import { STORES, type StoreSpec } from '../../src/core/stores.js';
import { filesUnder } from '../hostile/harness.js';
import { corpora, copyHome } from '../helpers/real-corpus.js';
import { copyImage, fixture } from '../helpers/source.js';
import { uploadName } from '../helpers/velociraptor-layout.js';

export type Os = 'windows' | 'linux' | 'macos';

/** Homes of the synthetic machine of each OS. */
const HOMES: Record<Os, string[]> = { windows: ['C/Users/syn'], linux: ['home/syn', 'root'], macos: ['Users/syn'] };

/**
 * Where an editor of the VS Code family keeps its user data (`<here>/User/globalStorage`), below a home:
 * desktop editors (VS Code's own `Code`, `Code - Insiders`, and forks: VSCodium, Cursor, Windsurf, Kiro),
 * Flatpak and code-server on Linux, and the remote servers an editor installs in the home of the machine
 * it connects to.
 */
const EDITOR_DATA: Record<Os, string[]> = {
  windows: [
    'AppData/Roaming/Code',
    'AppData/Roaming/Code - Insiders',
    'AppData/Roaming/Cursor',
    'AppData/Roaming/Windsurf',
    '.vscode-server/data',
  ],
  linux: [
    '.config/Code',
    '.config/VSCodium',
    '.var/app/com.visualstudio.code/config/Code',
    '.local/share/code-server',
    '.windsurf-server/data',
  ],
  macos: ['Library/Application Support/Kiro', '.cursor-server/data'],
};

/** Where `Documents` lies below a home: Windows moves it into OneDrive when asked (personal or an organisation's). */
const DOCUMENTS: Record<Os, string[]> = {
  windows: ['Documents', 'OneDrive/Documents', 'OneDrive - Contoso/Documents'],
  linux: ['Documents'],
  macos: ['Documents'],
};

/** The folder below which each root kind lies in a home, for one OS (the root is `<folder>/<name>[/<sub>]`). */
function rootHolders(os: Os, home: string): Array<[RootKindId, string]> {
  const out: Array<[RootKindId, string]> = [];
  for (const data of EDITOR_DATA[os]) {
    for (const kind of ['vscode-globalstorage', 'roo-globalstorage', 'kilo-globalstorage'] as const)
      out.push([kind, `${home}/${data}/User/globalStorage`]);
    out.push(['vscode-user', `${home}/${data}`]);
  }
  out.push(['cline-data', home], ['cline-home', home]);
  for (const docs of DOCUMENTS[os]) out.push(['documents-cline', `${home}/${docs}`]);
  return out;
}

/**
 * Paths a glob of the store specification matches: every `{a,b}` alternative; `**` as a file and as a
 * folder's file; the i-th of n stars as `xn-i`, so that the checkpoint patterns of one and of two levels
 * below `.git` name different folders, never one path as a file and as a folder.
 */
function samplePaths(glob: string): string[] {
  const group = /\{([^{}]*)\}/.exec(glob);
  if (group) return group[1].split(',').flatMap((alt) => samplePaths(glob.replace(group[0], alt)));
  if (glob.includes('**')) return ['zz-top.txt', 'zz-dir/zz-file.txt'].flatMap((s) => samplePaths(glob.replace('**', s)));
  const stars = glob.split('*').length - 1;
  let i = 0;
  return [glob.replace(/\*/g, () => `x${stars}-${++i}`)];
}

/** Image-relative paths of one file per pattern of every store, at every root of every root kind of a synthetic machine. */
export function syntheticFiles(os: Os): string[] {
  const out = new Set<string>();
  for (const home of HOMES[os]) {
    const holders = rootHolders(os, home);
    for (const kind of ROOT_KINDS)
      if (!holders.some(([id]) => id === kind.id)) throw new Error(`root kind ${kind.id} has no place in rootHolders`);
    for (const [kindId, holder] of holders) {
      const kind = ROOT_KINDS.find((k) => k.id === kindId)!;
      for (const name of kind.names) {
        const root = `${holder}/${name}${'sub' in kind ? `/${kind.sub}` : ''}`;
        for (const spec of STORES as readonly StoreSpec[]) {
          const except = spec.except ? globsRegExp(spec.except) : null;
          for (const glob of spec.files[kindId] ?? []) {
            for (const rel of samplePaths(glob)) if (!except?.test(rel)) out.add(`${root}/${rel}`);
          }
        }
      }
    }
  }
  return [...out].sort();
}

/** Every file at one even second: a zip keeps DOS times (2 s), so a zip of the fleet keeps the same mtimes. */
const STAMP = new Date('2026-10-01T00:00:00Z');

/** Builds the fleet under `fleet` (one folder per host) and returns its host names. */
export function buildFleet(fleet: string): string[] {
  mkdirSync(fleet, { recursive: true });
  const demo = fixture('fleet');
  for (const host of readdirSync(demo)) {
    if (statSync(path.join(demo, host)).isDirectory()) cpSync(path.join(demo, host), path.join(fleet, host), { recursive: true });
  }
  const userFolder: Record<Os, string> = { windows: 'C/Users', linux: 'home', macos: 'Users' };
  for (const os of Object.keys(userFolder) as Os[]) {
    for (const c of corpora()) copyHome(c, path.join(fleet, `real-producer-${os}`, ...userFolder[os].split('/'), c.name));
  }
  for (const name of readdirSync(fixture())) {
    const img = fixture(name, 'img');
    if (name !== 'fleet' && statSync(fixture(name)).isDirectory() && readdirSync(fixture(name)).includes('img'))
      copyImage(img, path.join(fleet, `fixture-${name}`));
  }
  for (const os of Object.keys(HOMES) as Os[]) {
    for (const rel of syntheticFiles(os)) {
      const file = path.join(fleet, `synthetic-${os}`, ...rel.split('/'));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `synthetic ${rel}\n`);
    }
  }
  for (const rel of filesUnder(fleet)) utimesSync(path.join(fleet, rel), STAMP, STAMP);
  return readdirSync(fleet).sort();
}

/** A KAPE tree of one host: the selected files copied under `tdest/<host>/`, with their times, as `--tdest DIR\%m` lays them. */
export function writeKapeTree(image: string, files: Iterable<string>, dest: string): void {
  for (const rel of files) {
    const to = path.join(dest, ...rel.split('/'));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(path.join(image, ...rel.split('/')), to, { preserveTimestamps: true });
  }
}

/** The path Velociraptor names an image file by: `C:/Users/...` for the image's `C` folder, `/home/...` (without its `/`) elsewhere. */
export function logicalOf(rel: string): string {
  return /^[A-Z]\//.test(rel) ? `${rel[0]}:${rel.slice(1)}` : rel;
}

/**
 * An offline collection of one host as Velociraptor's collector writes it (vql/tools/collector,
 * reporting/container.go): the uploads at `uploads/auto/<escaped path>` with their parent folders, one
 * result set per source (`results/<artifact>%2F<source>.json`), `uploads.json`, `log.json`,
 * `requests.json`, `client_info.json` (the Hostname) and `collection_context.json`.
 */
export async function writeVelociraptorZip(
  image: string,
  host: string,
  artifact: string,
  bySource: ReadonlyMap<string, Iterable<string>>,
  zipFile: string,
): Promise<void> {
  const zip = new yazl.ZipFile();
  const dirs = new Set<string>();
  const uploads: string[] = [];
  const addDirs = (member: string) => {
    const segs = member.split('/');
    for (let i = 1; i < segs.length; i++) {
      const dir = `${segs.slice(0, i).join('/')}/`;
      if (!dirs.has(dir)) zip.addEmptyDirectory(dir, { mtime: STAMP });
      dirs.add(dir);
    }
  };
  for (const [source, files] of bySource) {
    const rows: string[] = [];
    for (const rel of files) {
      const member = uploadName(logicalOf(rel));
      const st = statSync(path.join(image, ...rel.split('/')));
      addDirs(member);
      zip.addFile(path.join(image, ...rel.split('/')), member, { mtime: st.mtime });
      const osPath = logicalOf(rel).replace(/^(?![A-Z]:)/, '/');
      const upload = { Path: osPath, Size: st.size, StoredName: `/${member}`, Components: member.split('/') };
      rows.push(JSON.stringify({ OSPath: osPath, Size: st.size, Mtime: st.mtime.toISOString(), Upload: upload }));
      uploads.push(
        JSON.stringify({ vfs_path: osPath, _Components: member.split('/'), file_size: st.size, uploaded_size: st.size }),
      );
    }
    const results = `results/${artifact}%2F${source}.json`;
    addDirs(results);
    zip.addBuffer(Buffer.from(rows.map((r) => `${r}\n`).join('')), results, { mtime: STAMP });
  }
  const text = (name: string, value: string) => zip.addBuffer(Buffer.from(value), name, { mtime: STAMP });
  text('uploads.json', uploads.map((u) => `${u}\n`).join(''));
  text('log.json', `${JSON.stringify({ level: 'DEFAULT', message: `Starting collection of ${artifact}` })}\n`);
  text('requests.json', JSON.stringify({ items: [] }));
  text('client_info.json', JSON.stringify({ Hostname: host, HostID: `C.${host}` }, null, 1));
  text('collection_context.json', JSON.stringify({ request: { artifacts: [artifact] }, total_uploaded_files: uploads.length }));
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(zipFile)).on('close', resolve).on('error', reject);
  });
}
