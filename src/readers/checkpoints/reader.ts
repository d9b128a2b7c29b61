/**
 * `checkpoints` store: the shadow git repositories in which Cline (the VS Code extension, CLI 1.x and
 * 2.x) snapshots a workspace, one per workspace: `<store root>/checkpoints/<cwdHash>/.git`
 * (src/integrations/checkpoints/ of cline/cline before 791d2389: CheckpointUtils.ts getShadowGitPath,
 * CheckpointGitOperations.ts initShadowGit, CheckpointTracker.ts commit and resetHead). Cline sets
 * `core.worktree` to the workspace, commits `initial commit` when it creates the repository, then one
 * commit per checkpoint with the message `checkpoint-<cwdHash>-<taskId>` (`--allow-empty`), on one
 * branch; restoring a checkpoint is `git reset --hard <commit>`, which leaves the later commits on no
 * branch, recorded only by the reflog (`logs/HEAD`).
 *
 * The repository is read without git (readers/parse/git-*.ts), from its files only, never written.
 * Rows:
 * - `checkpoint`: one per commit the object database holds, reachable or not, at the committer time:
 *   `checkpoint: <N> paths changed: A <path>, M <path>, D <path>, ... (commit <id>, parent <id>,
 *   message "<message>")`, the paths against the first parent (every path for the initial commit), at
 *   most MAX_LISTED of them and `(+N more)`. `session_id` is the task id of the message,
 *   `project_path` the config's `core.worktree`. `source_file` is the object's file (the loose object,
 *   or the pack with `source_line` its 1-based place in the pack).
 * - `reflog:<verb>`: one per `logs/HEAD` line that is not a commit the database holds, above all the
 *   restores (`reflog:reset`), at the reflog time, with the task id of the commit HEAD moved to.
 * - `parser`: each file, object or line that cannot be read; the rest of the repository is read on,
 *   and the other repositories of the store are read whatever happens to one.
 */
import * as path from 'node:path';
import type { Row, Source } from '../../core/row.js';
import { rethrowOwnFault } from '../../core/own-fault.js';
import type { Commit } from '../parse/git-object.js';
import { placeOf, readTree } from '../parse/git-odb.js';
import {
  closeRepo,
  everyCommit,
  type FoundCommit,
  type GitRepo,
  openRepo,
  problemOf,
  reachableFrom,
  type RepoProblem,
} from '../parse/git-repo.js';
import { parseReflogLine, type ReflogEntry } from '../parse/git-refs.js';
import { diffTrees, type TreeChanges } from '../parse/git-tree-diff.js';
import { readLines } from '../parse/lines.js';
import type { Reader } from '../common/rows.js';
import { fileFailedRow, parserRow, rowFor } from '../common/rows.js';

/** Paths listed in one checkpoint row; the rest are counted. */
export const MAX_LISTED = 100;

/** Longest reflog line read (git writes one line of ~200 bytes per move). */
const MAX_REFLOG_LINE_BYTES = 1024 * 1024;

/** Cline's checkpoint message: `checkpoint-<cwdHash>-<taskId>`. */
const CHECKPOINT_MESSAGE = /^checkpoint-(\d+)-(\S+)$/;

/** One shadow repository of the source: its git folder and the files under it. */
interface ShadowRepo {
  gitDir: string;
  /** Path relative to the git folder → absolute path, in file order. */
  files: Map<string, string>;
}

/** The source's files grouped by git folder (`checkpoints/<cwdHash>/.git`), in file order. */
function shadowRepos(source: Source): ShadowRepo[] {
  const repos = new Map<string, ShadowRepo>();
  for (const file of source.files) {
    const rel = path.relative(source.root, file).split(path.sep).join('/');
    const m = /^(checkpoints\/[^/]+\/\.git)\/(.+)$/.exec(rel);
    if (m === null) continue;
    let repo = repos.get(m[1]);
    if (repo === undefined) {
      repo = { gitDir: path.join(source.root, ...m[1].split('/')), files: new Map() };
      repos.set(m[1], repo);
    }
    repo.files.set(m[2], file);
  }
  return [...repos.values()];
}

/** The task id a checkpoint message carries, or null. */
export function taskIdOf(message: string): string | null {
  return CHECKPOINT_MESSAGE.exec(message.trim())?.[2] ?? null;
}

function showPath(p: string): string {
  return /[,"\\\p{Cc}]|^\s|\s$/u.test(p) ? JSON.stringify(p) : p;
}

/** `1 path changed: A notes.txt`, `no path changed`, `240 paths changed: A a, ... (+140 more)`. */
export function changesText(changes: TreeChanges): string {
  if (changes.count === 0 && !changes.truncated) return 'no path changed';
  const count = changes.truncated ? `at least ${changes.count} paths` : changes.count === 1 ? '1 path' : `${changes.count} paths`;
  const listed = changes.listed.map((c) => `${c.status} ${showPath(c.path)}`).join(', ');
  const more = changes.count > changes.listed.length ? ` (+${changes.count - changes.listed.length} more)` : '';
  const stopped = changes.truncated ? ' (the walk stopped at its bound of tree entries)' : '';
  return `${count} changed: ${listed}${more}${stopped}`;
}

/** What reaches the commits: null when the repository has no ref (or no reflog) to say it. */
interface Reach {
  onBranch: ReadonlySet<string> | null;
  inReflog: ReadonlySet<string> | null;
}

/** Why reachability matters: a restore leaves the later checkpoints on no branch, in the reflog only. */
function reachText(oid: string, reach: Reach): string {
  if (reach.onBranch === null || reach.onBranch.has(oid)) return '';
  if (reach.inReflog === null) return ', on no branch';
  return reach.inReflog.has(oid) ? ', on no branch: reflog only' : ', on no branch and in no reflog';
}

interface RepoContext {
  source: Source;
  repo: GitRepo;
  worktree: string | null;
  commits: Map<string, Commit>;
  /** The file being read, named by the `parser:` row of an unexpected throw. */
  current: string;
}

function problemRow(ctx: RepoContext, problem: RepoProblem): Row {
  return parserRow(ctx.source, problem.file, problem.line, problem.message);
}

/** The checkpoint row of one commit, and the problems its diff met. */
function commitRows(ctx: RepoContext, found: FoundCommit, reach: Reach): Row[] {
  const { oid, commit } = found;
  const at = placeOf(found.place);
  ctx.current = at.file;
  const rows: Row[] = commit.badHeaders.map((bad) =>
    problemRow(ctx, { file: at.file, line: at.ordinal, message: `commit ${oid}: ${bad}` }),
  );
  const parent = commit.parents[0] ?? null;
  let changed: string;
  try {
    const treeOf = (tree: string) => readTree(ctx.repo.store, tree);
    const parentTree = parent === null ? null : (ctx.commits.get(parent)?.tree ?? null);
    if (parent !== null && parentTree === null) throw new Error(`parent ${parent} not found or not readable`);
    changed = changesText(diffTrees(treeOf, parentTree, commit.tree, MAX_LISTED));
  } catch (err) {
    rethrowOwnFault(err);
    const problem = problemOf(err, at.file, at.ordinal);
    // a fault of another object's file is that file's; one no file holds is this commit's
    const ours = problem.file === at.file && problem.line === at.ordinal;
    rows.push(problemRow(ctx, ours ? { ...problem, message: `commit ${oid}: ${problem.message}` } : problem));
    changed = `paths changed unknown (${(err as Error).message})`;
  }
  const parents =
    commit.parents.length === 0
      ? 'root commit'
      : `${commit.parents.length === 1 ? 'parent' : 'parents'} ${commit.parents.join(' ')}`;
  const when = commit.committer ?? commit.author;
  rows.unshift(
    rowFor(ctx.source, at.file, {
      source_line: at.ordinal,
      timestamp_utc: when?.timeMs ?? null,
      session_id: taskIdOf(commit.message),
      project_path: ctx.worktree,
      turn_type: 'system',
      kind: 'checkpoint',
      text: `checkpoint: ${changed} (commit ${oid}, ${parents}, message ${JSON.stringify(commit.message)}${reachText(oid, reach)})`,
    }),
  );
  return rows;
}

/** The verb of a reflog message: `reset` of `reset: moving to ...`, `commit` of `commit (initial): ...`. */
function reflogVerb(message: string): string {
  return /^[A-Za-z][\w-]*/.exec(message)?.[0] ?? 'unknown';
}

function reflogRow(ctx: RepoContext, file: string, line: number, entry: ReflogEntry): Row | null {
  const verb = reflogVerb(entry.message);
  const target = ctx.commits.get(entry.new);
  if (verb === 'commit' && target !== undefined) return null; // the commit's own row says it
  const missing = target === undefined && !/^0{40}$/.test(entry.new) ? '; that commit is not in the object database' : '';
  const about = target === undefined ? '' : ` ${JSON.stringify(target.message)}`;
  const text =
    verb === 'reset'
      ? `checkpoint restore: HEAD reset from ${entry.old} to ${entry.new}${about} (reflog: ${entry.message}${missing})`
      : `checkpoint reflog: HEAD ${entry.old} -> ${entry.new}${about} (reflog: ${entry.message}${missing})`;
  return rowFor(ctx.source, file, {
    source_line: line,
    timestamp_utc: entry.who.timeMs,
    session_id: taskIdOf(target?.message ?? entry.message.replace(/^[^:]*:\s*/, '')),
    project_path: ctx.worktree,
    turn_type: 'system',
    kind: `reflog:${verb}`,
    text,
  });
}

/** The rows of `logs/HEAD`, each line's ids pushed to `tips`. */
async function* reflogRows(ctx: RepoContext, reflog: string, tips: string[]): AsyncGenerator<Row> {
  for await (const event of readLines(reflog, MAX_REFLOG_LINE_BYTES)) {
    if (event.type === 'error') {
      yield parserRow(ctx.source, reflog, event.lineNo, event.message);
      continue;
    }
    const entry = parseReflogLine(event.text);
    if (entry === null) {
      yield parserRow(
        ctx.source,
        reflog,
        event.lineNo,
        'reflog line not read: not `<old id> <new id> <who> <time> <zone>\\t<message>`',
      );
      continue;
    }
    tips.push(entry.old, entry.new);
    const row = reflogRow(ctx, reflog, event.lineNo, entry);
    if (row !== null) yield row;
  }
}

/** The rows of one shadow repository; a throw costs the rest of this repository only. */
async function* readRepo(source: Source, shadow: ShadowRepo): AsyncGenerator<Row> {
  const problems: RepoProblem[] = [];
  const first = shadow.files.values().next().value ?? shadow.gitDir;
  let repo: GitRepo;
  try {
    repo = await openRepo(shadow.files, problems);
  } catch (err) {
    yield fileFailedRow(source, first, err);
    return;
  }
  const ctx: RepoContext = {
    source,
    repo,
    worktree: repo.config.get('core.worktree') || null,
    commits: new Map(),
    current: first,
  };
  try {
    const format = repo.config.get('extensions.objectformat');
    if (format !== undefined && format.toLowerCase() !== 'sha1') {
      problems.push({ file: shadow.files.get('config') as string, line: null, message: `object format ${format} is not read` });
    }
    const found: { commit: FoundCommit; file: string; ordinal: number }[] = [];
    for (const commit of everyCommit(repo, problems)) {
      const at = placeOf(commit.place);
      found.push({ commit, file: at.file, ordinal: at.ordinal ?? 0 });
      ctx.commits.set(commit.oid, commit.commit);
    }
    for (const problem of problems.splice(0)) yield problemRow(ctx, problem);

    const reflogTips: string[] = [];
    const reflog = shadow.files.get('logs/HEAD');
    if (reflog !== undefined) {
      ctx.current = reflog;
      yield* reflogRows(ctx, reflog, reflogTips);
    }
    const reach: Reach = {
      onBranch: repo.refTips.length === 0 ? null : reachableFrom(repo.refTips, ctx.commits),
      inReflog: reflog === undefined ? null : reachableFrom(reflogTips, ctx.commits),
    };
    found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.ordinal - b.ordinal));
    for (const { commit } of found) yield* commitRows(ctx, commit, reach);
  } catch (err) {
    yield fileFailedRow(source, ctx.current, err);
  } finally {
    closeRepo(repo);
  }
}

/** Every shadow repository of the source, one after the other; see the module comment. */
export const readCheckpoints: Reader = async function* (source: Source): AsyncIterable<Row> {
  for (const shadow of shadowRepos(source)) yield* readRepo(source, shadow);
};
