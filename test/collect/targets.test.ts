/**
 * Issue 25 point 6: the collection targets in collect/ bring in every file clinetrail reads or lists.
 *
 * The truth is a real load: the `files` table of a warehouse the built CLI loaded from the fleet of
 * collect-fleet.ts (the demo fleet, the real-producer homes on Windows, Linux and macOS, every reader
 * fixture, and synthetic machines planted from the store specification itself). The targets are read as
 * KAPE and Velociraptor read them (YAML) and expanded by emulations of their rules (kape-emulation.ts,
 * velociraptor-emulation.ts; velociraptor-emulation.test.ts checks the glob one against Velociraptor's
 * own golden test). Then:
 * - each target collects every file the loader lists (KAPE: in the Windows part of the images, but for
 *   the one gap KAPE cannot avoid, named below);
 * - each entry, each glob, is needed: without it some file the loader reads is not collected, so a
 *   target that loses a line fails here;
 * - a KAPE tree and a Velociraptor offline collection (zip, member for member) of what they collect load
 *   to the same `files` and `raw_events` rows as the images themselves.
 */
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, query, runCli, snapshotTree, workDir } from '../hostile/harness.js';
import { REPO } from '../helpers/source.js';
import { buildFleet, syntheticFiles, writeKapeTree, writeVelociraptorZip } from './collect-fleet.js';
import { type KapeEntry, kapeSelect, readKapeTarget } from './kape-emulation.js';
import { csvColumn, expandBraces, goRegExp, readArtifact, type VeloOs, veloSelect } from './velociraptor-emulation.js';

const KAPE_DIR = path.join(REPO, 'collect', 'kape');
const ARTIFACT_FILE = path.join(REPO, 'collect', 'velociraptor', 'Custom.Cline.Collection.yaml');
const ARTIFACT = readArtifact(ARTIFACT_FILE);
const CLINE = readKapeTarget(path.join(KAPE_DIR, 'Cline.tkape'));
const TRIAGE = readKapeTarget(path.join(KAPE_DIR, 'ClineTriage.tkape'));

/** The artifact's sources: the OS of each, and the parameter holding its globs. */
const SOURCES: Array<{ name: string; os: VeloOs; parameter: string }> = [
  { name: 'Windows', os: 'windows', parameter: 'WindowsGlobs' },
  { name: 'Linux', os: 'linux', parameter: 'LinuxGlobs' },
  { name: 'MacOS', os: 'darwin', parameter: 'MacOSGlobs' },
];
const EXCLUDE = ARTIFACT.defaults.ExcludePathRegex ? goRegExp(ARTIFACT.defaults.ExcludePathRegex) : null;
/** Every glob of a source, its CSV rows' braces expanded: what glob() walks. */
const globsOf = (parameter: string) => expandBraces(csvColumn(ARTIFACT.defaults[parameter], 'Glob'));

/**
 * KAPE has no way to leave a folder out, so Cline.tkape takes `.cline`'s files and its `data` and `logs`
 * folders one by one rather than `.cline` whole with its `worktrees` (checkouts of the user's
 * repositories). A file the loader lists in another folder of `.cline` is not collected by KAPE.
 */
const KAPE_GAP = /(^|\/)\.cline\/(?!data\/|logs\/)[^/]+\//i;

const work = workDir('collect');
const fleet = path.join(work, 'fleet');
let hosts: string[] = [];
/** host → image-relative paths the loader lists in `files`. */
const listed = new Map<string, Set<string>>();
/** host → entry (index in CLINE.entries) → what it collects. */
const kapeHits = new Map<string, Array<Set<string>>>();
/** host → source → glob → what it uploads. */
const veloHits = new Map<string, Map<string, Map<string, Set<string>>>>();
let fleetBefore: Record<string, string> = {};

const union = (sets: Iterable<Set<string>>): Set<string> => {
  const out = new Set<string>();
  for (const s of sets) for (const v of s) out.add(v);
  return out;
};
const missing = (want: Iterable<string>, have: Set<string>): string[] => [...want].filter((f) => !have.has(f)).sort();
/** What the loader lists in the Windows part (`C/`) of an image: KAPE's scope. */
const windowsPart = (files: Iterable<string>): string[] => [...files].filter((f) => f.startsWith('C/'));

function veloCollected(host: string, without?: { source: string; glob: string }): Set<string> {
  const sets: Set<string>[] = [];
  for (const [source, byGlob] of veloHits.get(host)!)
    for (const [glob, hits] of byGlob) if (!(without?.source === source && without.glob === glob)) sets.push(hits);
  return union(sets);
}

beforeAll(async () => {
  assertBuilt();
  hosts = buildFleet(fleet);
  fleetBefore = snapshotTree(fleet);
  const run = await runCli(['load', '--fleet', fleet, '--out', path.join(work, 'out')]);
  expect(run.code, describeRun(run)).toBe(0);
  for (const [host, file] of (await query(path.join(work, 'out'), 'select host, source_file from files')) as string[][]) {
    if (!listed.has(host)) listed.set(host, new Set());
    listed.get(host)!.add(file);
  }
  for (const host of hosts) {
    const image = path.join(fleet, host);
    kapeHits.set(
      host,
      CLINE.entries.map((e) => kapeSelect(image, e)),
    );
    const bySource = new Map<string, Map<string, Set<string>>>();
    for (const s of SOURCES) bySource.set(s.name, new Map(globsOf(s.parameter).map((g) => [g, veloSelect(image, g, EXCLUDE)])));
    veloHits.set(host, bySource);
  }
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the fleet', () => {
  it('holds every host the test means to collect from, each with files the loader lists', () => {
    for (const h of ['WIN-ALICE01', 'mac-bob', 'lnx-u01', '0042', 'real-producer-windows', 'synthetic-linux'])
      expect(hosts).toContain(h);
    for (const h of hosts) expect(listed.get(h)?.size ?? 0, h).toBeGreaterThan(0);
  });

  it('the loader lists every file planted in the synthetic machines: one per pattern of every store, at every place', () => {
    for (const os of ['windows', 'linux', 'macos'] as const) {
      expect([...listed.get(`synthetic-${os}`)!].sort(), os).toEqual(syntheticFiles(os));
    }
  });
});

describe('the KAPE targets (collect/kape)', () => {
  it('are targets as KAPE reads them: the required fields, a unique GUID each, folders as paths', () => {
    const ids = new Set<string>();
    for (const t of [CLINE, TRIAGE]) {
      for (const field of ['Description', 'Author', 'Version', 'Id']) expect(String(t.doc[field] ?? '')).not.toBe('');
      expect(String(t.doc.Id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.add(String(t.doc.Id));
      expect(t.doc.RecreateDirectories).toBe(true);
      for (const raw of t.doc.Targets as Array<Record<string, unknown>>) {
        expect(
          Object.keys(raw).filter((k) => !['Name', 'Category', 'Path', 'Recursive', 'FileMask', 'Comment'].includes(k)),
        ).toEqual([]);
        expect(typeof raw.Name === 'string' && typeof raw.Category === 'string' && typeof raw.Path === 'string').toBe(true);
      }
    }
    expect(ids.size).toBe(2);
    for (const e of CLINE.entries) expect(e.path, e.name).toMatch(/^C:\\.*\\$/);
  });

  it('ClineTriage.tkape takes in every entry of Cline.tkape, beside targets that ship with KAPE', () => {
    expect(TRIAGE.entries).toEqual(CLINE.entries);
    expect(TRIAGE.external).toEqual(['VisualStudioCode.tkape', 'PowerShellConsole.tkape']);
  });

  it('Cline.tkape collects every file the loader lists in the Windows part of every image, KAPE_GAP aside', () => {
    const gap: string[] = [];
    for (const host of hosts) {
      const want = windowsPart(listed.get(host)!);
      const lost = missing(want, union(kapeHits.get(host)!));
      expect(
        lost.filter((f) => !KAPE_GAP.test(f)),
        host,
      ).toEqual([]);
      gap.push(...lost.map((f) => `${host}/${f}`));
    }
    // the gap is the folder the store specification's `**` (unread files) plants beside `.cline/data`
    const planted = syntheticFiles('windows').filter((f) => KAPE_GAP.test(f));
    expect(planted.length).toBeGreaterThan(0);
    expect(gap).toEqual(planted.map((f) => `synthetic-windows/${f}`));
  });

  it('needs every entry: without any one of them, a file the loader lists is not collected', () => {
    const unneeded = CLINE.entries.filter((_entry: KapeEntry, i) =>
      hosts.every((host) => {
        const sets = kapeHits.get(host)!;
        return (
          missing(windowsPart(listed.get(host)!), union(sets.filter((_, j) => j !== i))).length ===
          missing(windowsPart(listed.get(host)!), union(sets)).length
        );
      }),
    );
    expect(unneeded.map((e) => `${e.name}: ${e.path}`)).toEqual([]);
  });

  it('a KAPE tree of what it collects loads to the same files and rows as the Windows part of the images', async () => {
    const kapeFleet = path.join(work, 'kape');
    for (const host of hosts) {
      const files = union(kapeHits.get(host)!);
      if (files.size > 0) writeKapeTree(path.join(fleet, host), files, path.join(kapeFleet, host));
    }
    const kapeOut = path.join(work, 'kape-out');
    const run = await runCli(['load', '--fleet', kapeFleet, '--out', kapeOut]);
    expect(run.code, describeRun(run)).toBe(0);
    const filesSql = `select host, store, source_file, size_bytes, sha256, mtime_utc from files`;
    const original = (await query(path.join(work, 'out'), `${filesSql} where source_file like 'C/%' order by all`)).filter(
      (r) => !KAPE_GAP.test(String(r[2])),
    );
    expect(original.length).toBeGreaterThan(syntheticFiles('windows').length);
    expect(await query(kapeOut, `${filesSql} order by all`)).toEqual(original);
    const rowsSql = 'select * from raw_events';
    const rows = await query(path.join(work, 'out'), `${rowsSql} where source_file like 'C/%' order by all`);
    expect(rows.length).toBeGreaterThan(100);
    expect(await query(kapeOut, `${rowsSql} order by all`)).toEqual(rows);
  });
});

describe('the Velociraptor artifact (collect/velociraptor)', () => {
  it('is a CLIENT artifact named for a custom artifact, one source per OS, that globs and uploads as emulated here', () => {
    const doc = ARTIFACT.doc;
    expect(doc.name).toBe('Custom.Cline.Collection');
    expect(doc.type).toBe('CLIENT');
    const sources = doc.sources as Array<Record<string, string>>;
    expect(sources.map((s) => s.name)).toEqual(SOURCES.map((s) => s.name));
    for (const [i, s] of SOURCES.entries()) {
      expect(sources[i].precondition).toBe(`SELECT OS FROM info() WHERE OS = '${s.os}'`);
      expect(sources[i].query.trim()).toBe(`SELECT * FROM CollectCline(Globs=${s.parameter}.Glob)`);
    }
    // the filters velociraptor-emulation.ts applies, as the export section writes them
    const vql = String(doc.export).replace(/\s+/g, ' ');
    expect(vql).toContain('then="x=>NOT x.OSPath =~ ExcludePathRegex"');
    expect(vql).toContain('FROM glob(globs=Globs, accessor=Accessor, recursion_callback=RecursionCallback)');
    expect(vql).toContain('WHERE NOT IsDir AND NOT (ExcludePathRegex AND OSPath =~ ExcludePathRegex)');
    expect(vql).toContain('upload(file=OSPath, accessor=Accessor, mtime=Mtime) AS Upload FROM ClineFiles(Globs=Globs)');
  });

  it('collects every file the loader lists in every image, and nothing of .cline/worktrees', () => {
    for (const host of hosts) {
      expect(missing(listed.get(host)!, veloCollected(host)), host).toEqual([]);
    }
    // the reader fixture of unread files holds a worktree, which the loader does not list
    const worktree = 'home/u/.cline/worktrees/1760000000000/proj/main.py';
    expect(snapshotTree(path.join(fleet, 'fixture-unread'))).toHaveProperty(worktree.split('/').join(path.sep));
    expect(veloCollected('fixture-unread').has(worktree)).toBe(false);
  });

  it('needs every glob of every source: without any one of them, a file the loader lists is not collected', () => {
    const unneeded: string[] = [];
    for (const s of SOURCES) {
      for (const glob of globsOf(s.parameter)) {
        const needed = hosts.some((host) => missing(listed.get(host)!, veloCollected(host, { source: s.name, glob })).length > 0);
        if (!needed) unneeded.push(`${s.name}: ${glob}`);
      }
    }
    expect(unneeded).toEqual([]);
  });

  it('an offline collection (zip) of what it collects loads to the same files and rows as the images', async () => {
    const veloFleet = path.join(work, 'velociraptor');
    mkdirSync(veloFleet);
    for (const host of hosts) {
      const bySource = new Map([...veloHits.get(host)!].map(([source, byGlob]) => [source, union(byGlob.values())]));
      for (const [source, files] of bySource) if (files.size === 0) bySource.delete(source);
      await writeVelociraptorZip(
        path.join(fleet, host),
        host,
        String(ARTIFACT.doc.name),
        bySource,
        path.join(veloFleet, `${host}.zip`),
      );
    }
    const veloOut = path.join(work, 'velociraptor-out');
    const run = await runCli(['load', '--fleet', veloFleet, '--out', veloOut, '--no-hunts']);
    expect(run.code, describeRun(run)).toBe(0);
    // Velociraptor's image holds the `C` folder as `C:` (logicalOf): source_file, and the parser rows'
    // texts that name it, differ so (the first two columns); every other column is equal, home and user too
    const norm = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r.map(inImage))).sort();
    const inImage = (v: unknown, i: number) => (typeof v === 'string' && i < 2 ? v.replaceAll('C:/', 'C/') : v);
    const filesSql =
      'select source_file, first_error, host, store, home, user, client, size_bytes, sha256, mtime_utc, count_rows from files';
    const original = await query(path.join(work, 'out'), filesSql);
    expect(norm(await query(veloOut, filesSql))).toEqual(norm(original));
    expect(
      await query(veloOut, `select count(*)::INTEGER from files where archive_member like 'uploads/auto/C%3A/%'`),
    ).not.toEqual([[0]]);
    const rowsSql = 'select source_file, text, * exclude (row_id, source_file, text) from raw_events';
    const rows = await query(path.join(work, 'out'), rowsSql);
    expect(rows.length).toBeGreaterThan(1000);
    expect(norm(await query(veloOut, rowsSql))).toEqual(norm(rows));
  });

  it('leaves the fleet as it was, byte for byte', () => {
    expect(snapshotTree(fleet)).toEqual(fleetBefore);
  });
});
