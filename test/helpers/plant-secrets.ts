/**
 * Plants text in a copy of an image, in every place a store keeps free text, for the tests that search
 * a whole load for it (test/hostile/secrets-everywhere.test.ts). The copy is planted as its producer
 * would have written the text:
 * - JSON and JSONL files: appended to every string that holds a space (prose, commands, prompts) or is
 *   under a key of free text (or to every string: Plant.everyString), inside JSON held in strings too;
 * - logs: inside each JSON record (pino lines, `[hub] {...}`), as new variables of the 1.x cline-core
 *   environment dump, and as lines of their own;
 * - SQLite stores: the fixture databases written again by their builders (side-store-dbs.ts,
 *   sqlite-fixtures.ts, hub-events-fixture.ts) from their records, planted the same way;
 * - shadow git repositories (checkpoints): one more commit, with the text in its message and a file
 *   named by `fileName`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HUB_EVENTS, HUB_FIXTURE_DATA, writeHubEventsDb } from './hub-events-fixture.js';
import { FIXTURE_DBS, type SideDbStore, writeSideDb } from './side-store-dbs.js';
import { DEMO_ROWS } from './side-store-rows.js';
import { STATE_FIXTURES, writeStateDb } from './vscode-state-fixtures.js';
import { DEMO_SEARCH, DEMO_SEARCH_DB, DEMO_SESSIONS, DEMO_SESSIONS_DB } from './demo-dbs.js';
import { writeSearchIndexDb, writeSessionsDb } from './sqlite-fixtures.js';

/** What to plant: lines of free text, environment variables, and the name of a file. */
export interface Plant {
  lines: string[];
  env: Record<string, string>;
  fileName: string;
  /** Plant in every string of a JSON file, not only in free text (settings print their values as found). */
  everyString?: boolean;
}

/** Keys whose string values are free text even without a space. */
const FREE_TEXT_KEYS = new Set([
  'text',
  'content',
  'prompt',
  'message',
  'msg',
  'body',
  'title',
  'error',
  'description',
  'summary',
  'command',
  'commands',
  'result',
  'output',
  'outputText',
  'chunk',
  'query',
]);

/**
 * Strings planted per file or database, at most: each store still keeps some of them in rows, and OUT
 * stays small enough to search whole (a block in every string of the fixtures made 45,000 secrets).
 */
const PER_FILE = 4;

/** How many more strings of one file may be planted. */
export interface Budget {
  left: number;
}

/** `value` with the lines appended to each string of free text in it, while `budget` lasts. */
export function plantIn(value: unknown, plant: Plant, budget: Budget = { left: PER_FILE }, key = ''): unknown {
  if (typeof value === 'string') {
    const json = /^\s*[[{]/.test(value) ? tryParse(value) : undefined;
    if (json !== undefined) return JSON.stringify(plantIn(json, plant, budget));
    const free = plant.everyString || value.includes(' ') || FREE_TEXT_KEYS.has(key);
    if (!free || budget.left <= 0) return value;
    budget.left -= 1;
    return `${value}\n${plant.lines.join('\n')}`;
  }
  if (Array.isArray(value)) return value.map((v) => plantIn(v, plant, budget, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plantIn(v, plant, budget, k)]));
  }
  return value;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The prefix of a 1.x cline-core log line (`[local time] #bot.cline.server.ts `). */
const CORE_LINE = /^(\[\d{4}-\d\d-\d\dT[\d:.]+\] #bot\.cline\.server\.ts )/;
const ENV_DUMP = 'Environment variables: ';

function plantLog(text: string, plant: Plant): string {
  const budget = { left: PER_FILE };
  let corePrefix: string | null = null;
  const lines = text.split('\n').map((line) => {
    corePrefix ??= CORE_LINE.exec(line)?.[1] ?? null;
    const dump = line.indexOf(ENV_DUMP);
    if (dump >= 0 && tryParse(line.slice(dump + ENV_DUMP.length)) !== undefined) {
      const vars = JSON.parse(line.slice(dump + ENV_DUMP.length)) as Record<string, string>;
      return `${line.slice(0, dump + ENV_DUMP.length)}${JSON.stringify({ ...vars, ...plant.env })}`;
    }
    const json = /^(\[hub\] )?(\{.*\})$/.exec(line);
    const record = json ? tryParse(json[2]) : undefined;
    return record === undefined ? line : `${json![1] ?? ''}${JSON.stringify(plantIn(record, plant, budget))}`;
  });
  const end = lines.at(-1) === '' ? lines.pop() : undefined;
  lines.push(...plant.lines.map((l) => `${corePrefix ?? ''}${l}`));
  if (end !== undefined) lines.push(end);
  return lines.join('\n');
}

/** The builder of each fixture database, by its path under the image, from its records planted. */
function fixtureDbs(plant: Plant): Array<[string[], (file: string) => void]> {
  const planted = <T>(v: T) => plantIn(v, plant) as T;
  return [
    [DEMO_SESSIONS_DB.slice(2), (f) => writeSessionsDb(f, planted(DEMO_SESSIONS))],
    [DEMO_SEARCH_DB.slice(2), (f) => writeSearchIndexDb(f, planted(DEMO_SEARCH))],
    [[...HUB_FIXTURE_DATA.slice(2), 'db', 'hub-events-hub-production.db'], (f) => writeHubEventsDb(f, planted(HUB_EVENTS))],
    ...(Object.keys(FIXTURE_DBS) as SideDbStore[]).map((store): [string[], (file: string) => void] => [
      FIXTURE_DBS[store],
      (f) => writeSideDb(f, store, planted(DEMO_ROWS[store])),
    ]),
    // an editor's state databases: each agent's JSON state planted; a secret's value is never read, so left as is
    ...Object.entries(STATE_FIXTURES).map(([rel, items]): [string[], (file: string) => void] => [
      rel.split('/'),
      (f) =>
        writeStateDb(
          f,
          items.map(([k, v]) => [
            k,
            k.startsWith('secret://') || tryParse(v) === undefined ? v : JSON.stringify(planted(JSON.parse(v))),
          ]),
        ),
    ]),
  ];
}

/** git on a repository (its recorded worktree, on the evidence's machine, set aside), with no user or system configuration. */
function git(gitDir: string, args: string[], input?: string): string {
  return execFileSync('git', ['--git-dir', gitDir, '--work-tree', os.tmpdir(), ...args], {
    encoding: 'utf8',
    input,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Cline',
      GIT_AUTHOR_EMAIL: 'checkpoint@cline.bot',
      GIT_COMMITTER_NAME: 'Cline',
      GIT_COMMITTER_EMAIL: 'checkpoint@cline.bot',
      GIT_AUTHOR_DATE: '2026-12-01T18:00:00Z',
      GIT_COMMITTER_DATE: '2026-12-01T18:00:00Z',
    },
  }).trim();
}

/** Whether git runs here (the checkpoints are planted with it). */
export const hasGit = (() => {
  try {
    execFileSync('git', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

/** One more checkpoint commit in a shadow repository: a file named `plant.fileName`, the lines in the message. */
function plantCommit(gitDir: string, plant: Plant): void {
  const head = git(gitDir, ['rev-parse', 'HEAD']);
  const blob = git(gitDir, ['hash-object', '-w', '--stdin'], `${plant.lines.join('\n')}\n`);
  const tree = git(gitDir, ['mktree'], `100644 blob ${blob}\t${plant.fileName}\n`);
  const task = git(gitDir, ['log', '-1', '--format=%s', head]);
  const commit = git(gitDir, ['commit-tree', tree, '-p', head, '-m', `${task}\n\n${plant.lines.join('\n')}`]);
  git(gitDir, ['update-ref', 'HEAD', commit]);
}

/** Plants `plant` in every file of the image at `root` (a copy: its files are rewritten). */
export function plantImage(root: string, plant: Plant): void {
  for (const [parts, write] of fixtureDbs(plant)) {
    const file = path.join(root, ...parts);
    if (fs.existsSync(file)) write(file);
  }
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === '.git') {
          if (hasGit) plantCommit(file, plant);
        } else walk(file);
        continue;
      }
      const text = () => fs.readFileSync(file, 'utf8');
      if (e.name.endsWith('.log')) fs.writeFileSync(file, plantLog(text(), plant));
      else if (e.name.endsWith('.jsonl')) {
        const budget = { left: PER_FILE };
        const lines = text()
          .split('\n')
          .map((l) => (tryParse(l) === undefined ? l : JSON.stringify(plantIn(JSON.parse(l), plant, budget))));
        fs.writeFileSync(file, lines.join('\n'));
      } else if (e.name.endsWith('.json')) {
        const doc = tryParse(text());
        if (doc !== undefined) fs.writeFileSync(file, JSON.stringify(plantIn(doc, plant), null, 2));
      }
    }
  };
  walk(root);
}
