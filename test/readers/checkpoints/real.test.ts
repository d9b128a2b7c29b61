/**
 * The checkpoints reader on the home the released CLI 1.0.10 wrote when corpus/drive.ts drove it
 * (fixtures/real-producer/cline-1.0.10; its shadow .git committed as dot-git). The rows are checked
 * against what git itself says of a scratch copy (`git cat-file --batch-all-objects`, `git diff-tree`),
 * never run on the fixture, and against the driver's facts: which sessions ran when, and which files
 * the scripted model wrote.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { discoverImage } from '../../../src/discover/discover.js';
import { readCheckpoints } from '../../../src/readers/checkpoints/reader.js';
import { collect, copyImage, fixture } from '../../helpers/source.js';

interface Facts {
  workspace: string;
  sessions: {
    id: string;
    observedSessionId: string | null;
    runs: { startedAt: string; endedAt: string }[];
    mockRequests: { at: string; reply: { name?: string; args?: { path?: string } } }[];
  }[];
}

const CORPUS = fixture('real-producer', 'cline-1.0.10');
const facts = JSON.parse(readFileSync(path.join(CORPUS, 'facts.json'), 'utf8')) as Facts;
const GIT_DIR = 'home/.cline/data/checkpoints/4078535677/.git';

let img = '';
let rows: Row[] = [];
beforeAll(async () => {
  img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-checkpoints-real-'));
  copyImage(CORPUS, img);
  const found = await discoverImage({ host: 'h', root: img });
  const sources = found.sources.filter((s) => s.store === 'checkpoints');
  const gitFiles = (readdirSync(path.join(img, GIT_DIR), { recursive: true }) as string[]).filter((f) =>
    statSync(path.join(img, GIT_DIR, f)).isFile(),
  );
  expect(sources.map((s) => [s.home, s.client, s.files.length])).toEqual([['home', 'cline', gitFiles.length]]);
  rows = await collect(readCheckpoints, sources[0]);
});
afterAll(() => rmSync(img, { recursive: true, force: true }));

/** git on the scratch copy, with no user or system config. */
function git(...args: string[]): string {
  return execFileSync('git', ['--git-dir', path.join(img, GIT_DIR), '--work-tree', img, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

const hasGit = (() => {
  try {
    execFileSync('git', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

const floorToSecond = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * When a session's work may have ended: the driver runs sessions one after another, and a `cline task`
 * command returns while its task goes on in the long-lived instance, so a session ends by the time the
 * next one starts (the last one, a minute after its last model request).
 */
function sessionEnd(session: Facts['sessions'][number]): number {
  const start = Date.parse(session.runs[0].startedAt);
  const later = facts.sessions.map((s) => Date.parse(s.runs[0].startedAt)).filter((t) => t > start);
  if (later.length > 0) return Math.min(...later);
  return Math.max(...session.mockRequests.map((m) => Date.parse(m.at)), Date.parse(session.runs.at(-1)!.endedAt)) + 60_000;
}

describe('readCheckpoints on the home of the released CLI 1.0.10 (fixtures/real-producer)', () => {
  it.skipIf(!hasGit)("gives one row per commit git finds, with git's time, parent, message and paths changed", () => {
    const commits = git('cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)')
      .split('\n')
      .filter((l) => l.endsWith(' commit'))
      .map((l) => l.split(' ')[0]);
    expect(commits.length).toBeGreaterThan(facts.sessions.length);
    const expected = commits.map((oid) => {
      const [time, parents, subject] = git('log', '-1', '--format=%ct%n%P%n%s', oid).split('\n');
      const changes = git('diff-tree', '-r', '--root', '--no-commit-id', '--name-status', oid)
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.replace('\t', ' '));
      const changed =
        changes.length === 0
          ? 'no path changed'
          : `${changes.length} path${changes.length === 1 ? '' : 's'} changed: ${changes.join(', ')}`;
      const parent = parents === '' ? 'root commit' : `parent ${parents}`;
      const file = `${GIT_DIR}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
      const session = /^checkpoint-4078535677-(\d+)$/.exec(subject)?.[1] ?? null;
      return [file, Number(time) * 1000, session, `checkpoint: ${changed} (commit ${oid}, ${parent}, message "${subject}")`];
    });
    const got = rows.map((r) => [r.source_file, r.timestamp_utc, r.session_id, r.text]);
    expect(got).toEqual(expected.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)));
    expect(rows.every((r) => r.kind === 'checkpoint' && r.source_line === null)).toBe(true);
  });

  it("fits the driver's facts: the workspace, a checkpoint per session that ran, within its run, and the files it wrote", () => {
    expect(new Set(rows.map((r) => r.project_path))).toEqual(new Set([facts.workspace]));
    const ran = facts.sessions.filter((s) => s.observedSessionId !== null);
    expect(new Set(rows.map((r) => r.session_id).filter((s) => s !== null))).toEqual(
      new Set(ran.map((s) => s.observedSessionId)),
    );
    for (const session of ran) {
      const own = rows.filter((r) => r.session_id === session.observedSessionId);
      const start = floorToSecond(session.runs[0].startedAt);
      const end = sessionEnd(session);
      expect(own.length, session.id).toBeGreaterThan(0);
      for (const r of own) expect(r.timestamp_utc as number, session.id).toBeGreaterThanOrEqual(start);
      for (const r of own) expect(r.timestamp_utc as number, session.id).toBeLessThanOrEqual(end);
      // a file the shadow repository tracks: one in the workspace (the persistence scenario writes outside it)
      const inWorkspace = (p: string) => !path.isAbsolute(p) || p.startsWith(`${facts.workspace}/`);
      for (const write of session.mockRequests.filter(
        (m) => m.reply.name === 'write_to_file' && inWorkspace(String(m.reply.args?.path)),
      )) {
        const file = write.reply.args?.path as string;
        const after = own.filter((r) => (r.timestamp_utc as number) >= floorToSecond(write.at));
        expect(
          after.some((r) => new RegExp(`changed: (.*, )?[AM] ${file.replace('.', '\\.')}[, ]`).test(r.text ?? '')),
          `${session.id} ${file}`,
        ).toBe(true);
      }
    }
    // Cline makes the shadow repository, and its initial commit, when the first task starts
    const initial = rows.filter((r) => r.text?.endsWith('message "initial commit")'));
    const firstSession = [...facts.sessions].sort((a, b) => Date.parse(a.runs[0].startedAt) - Date.parse(b.runs[0].startedAt))[0];
    expect(initial).toHaveLength(1);
    expect(initial[0].session_id).toBe(null);
    expect(initial[0].timestamp_utc as number).toBeGreaterThanOrEqual(floorToSecond(firstSession.runs[0].startedAt));
    expect(initial[0].timestamp_utc as number).toBeLessThanOrEqual(sessionEnd(firstSession));
  });
});
