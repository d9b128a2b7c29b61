/**
 * The committed SQLite fixtures of the demo data, written once here with the builders of sqlite-fixtures.ts
 * (real DDL, journal_mode DELETE, vacuumed): the sessions-db and search-index store fixtures
 * (`fixtures/{sessions-db,search-index}/img/...`, read by their reader tests) and the demo fleet's
 * `fixtures/fleet/lnx-u01/home/u/.cline/data/db/` (test/e2e/demo-fleet.test.ts asserts what a load makes
 * of them). The spec's fixture session k3x9q is one row in both. The committed files are the output of
 * this module; regenerate them with:
 *   npx tsc -p tsconfig.json --outDir node_modules/.cache/clinetrail-fixtures && node node_modules/.cache/clinetrail-fixtures/test/helpers/demo-dbs.js
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSearchIndexDb, writeSessionsDb, type SearchSession, type SessionsDbRow } from './sqlite-fixtures.js';

/** The spec's fixture session: in the demo fleet its manifest is on disk, so its sessions.db row is shadowed. */
export const K3X9Q = '1760000000000_k3x9q';
/** The store fixtures' session whose manifest is gone. */
export const GONE1 = '1760000500000_gone1';
/** The demo fleet's session whose manifest and transcript are gone: only sessions.db and the search index know it. */
const FLEET_GONE = '1760000500000_gone3';
/** The demo fleet's imported session (manifest metadata.importedFrom claude-code). */
const FLEET_IMPORTED = '1760000800000_imp4d';

export const BLOB_UPLOAD = {
  version: 1,
  storage: { adapterType: 's3', bucket: 'acme-prompts', region: 'eu-west-1' },
  userDistinctId: 'u-42',
};

/** k3x9q's sessions.db row, the same in the store fixture and in the demo fleet. */
const K3X9Q_SESSION: SessionsDbRow = {
  session_id: K3X9Q,
  source: 'cli',
  pid: 4242,
  started_at: '2026-10-03T09:00:00.000Z',
  status: 'completed',
  interactive: 1,
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  cwd: '/home/u/proj',
  workspace_root: '/home/u/proj',
  enable_tools: 1,
  enable_spawn: 0,
  enable_teams: 0,
  prompt: 'fix tests',
  metadata_json: { title: 'fix tests' },
  messages_path: `/home/u/.cline/data/sessions/${K3X9Q}/${K3X9Q}.messages.json`,
  updated_at: '2026-10-03T09:00:05.000Z',
};

/** The demo sessions.db rows: the spec fixture session and a session whose manifest is gone. */
export const DEMO_SESSIONS: SessionsDbRow[] = [
  K3X9Q_SESSION,
  {
    session_id: GONE1,
    source: 'vscode',
    pid: 5151,
    started_at: '2026-10-03T09:08:20.000Z',
    ended_at: '2026-10-03T09:12:00.000Z',
    exit_code: 0,
    status: 'completed',
    interactive: 1,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    cwd: '/home/u/billing',
    workspace_root: '/home/u/billing',
    prompt: 'export the customer report',
    metadata_json: { title: 'export the customer report', 'enterprise.blobUpload': BLOB_UPLOAD },
    messages_path: `/home/u/.cline/data/sessions/${GONE1}/${GONE1}.messages.json`,
    updated_at: '2026-10-03T09:12:00.000Z',
  },
];

/**
 * The spec fixture session K3X9Q as the search index holds it: the demo fleet's copy was indexed after its
 * thinking block's text was written (`thinking`), at another transcript mtime (the revision's last part).
 */
function k3x9qSearch(thinking: string | null, transcriptMtimeMs: number): SearchSession {
  const assistant = ['thinking', ...(thinking === null ? [] : [thinking]), 'tool_use', 'call_1', 'bash', 'pytest -q'];
  return {
    session_id: K3X9Q,
    started_at: '2026-10-03T09:00:00.000Z',
    workspace_root: '/home/u/proj',
    title: 'fix tests',
    prompt: 'fix tests',
    documents: [
      { ordinal: 0, role: 'user', content: 'fix tests' },
      { ordinal: 1, role: 'assistant', content: assistant.join('\n') },
      { ordinal: 2, role: 'user', content: 'tool_result\ncall_1\nbash\n3 passed' },
    ],
    indexed: { indexed_at: '2026-10-03T09:05:00.000Z', source_revision: `2026-10-03T09:00:05.000Z:1502:${transcriptMtimeMs}` },
  };
}

/** A session whose transcript is gone, as the search index holds it: its prompt and what the assistant did. */
function goneSearch(sessionId: string, prompt: string, assistant: SearchSession['documents']): SearchSession {
  return {
    session_id: sessionId,
    started_at: '2026-10-03T09:08:20.000Z',
    workspace_root: '/home/u/billing',
    title: prompt,
    prompt,
    documents: [{ ordinal: 0, role: 'user', content: prompt }, ...assistant],
    indexed: { indexed_at: '2026-10-03T09:15:00.000Z', source_revision: '2026-10-03T09:12:00.000Z:2210:1760000720000' },
  };
}

/** The demo session-search.db: the spec fixture session and a session whose transcript is gone. */
export const DEMO_SEARCH: SearchSession[] = [
  k3x9qSearch(null, 1760000005000),
  goneSearch(GONE1, 'export the customer report', [
    { ordinal: 1, role: 'assistant', content: 'tool_use\ncall_9\nbash\npsql -c "\\copy customers to out/customers.csv csv"' },
    // ordinal 2 had no text (skipped by the indexer), so the ordinals have a gap.
    { ordinal: 3, role: 'assistant', content: 'text\nWrote out/customers.csv (1204 rows).' },
  ]),
];

export const DEMO_SESSIONS_DB = ['sessions-db', 'img', 'home', 'u', '.cline', 'data', 'db', 'sessions.db'];
export const DEMO_SEARCH_DB = ['search-index', 'img', 'home', 'u', '.cline', 'data', 'db', 'session-search.db'];

/** The demo fleet's folder of db files, relative to the repository root. */
const FLEET_DB_DIR = ['fixtures', 'fleet', 'lnx-u01', 'home', 'u', '.cline', 'data', 'db'];

const FLEET_SESSIONS: SessionsDbRow[] = [
  K3X9Q_SESSION,
  {
    session_id: FLEET_GONE,
    source: 'cli',
    pid: 4300,
    started_at: '2026-10-03T09:08:20.000Z',
    ended_at: '2026-10-03T09:12:00.000Z',
    exit_code: 0,
    status: 'completed',
    interactive: 1,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    cwd: '/home/u/billing',
    workspace_root: '/home/u/billing',
    prompt: 'dump the billing table to CSV',
    metadata_json: {
      title: 'dump the billing table to CSV',
      'enterprise.blobUpload': {
        version: 1,
        storage: { adapterType: 's3', bucket: 'acme-cline-prompts', region: 'eu-west-1' },
        userDistinctId: 'usr_0f9e8d7c',
      },
    },
    messages_path: `/home/u/.cline/data/sessions/${FLEET_GONE}/${FLEET_GONE}.messages.json`,
    updated_at: '2026-10-03T09:12:00.000Z',
  },
];

const FLEET_SEARCH: SearchSession[] = [
  // Indexed after m3: the plain-string m1 and two block-array messages (type names and ids in the text).
  k3x9qSearch('run the suite', 1760000003000),
  goneSearch(FLEET_GONE, 'dump the billing table to CSV', [
    { ordinal: 1, role: 'assistant', content: 'tool_use\ncall_9\nrun_commands\npsql -c "\\copy billing to out/billing.csv csv"' },
  ]),
  {
    session_id: FLEET_IMPORTED,
    started_at: '2026-10-03T09:20:00.000Z',
    workspace_root: '/home/u/proj',
    title: 'port the parser',
    prompt: 'port the parser to TypeScript',
    documents: [
      { ordinal: 0, role: 'user', content: 'port the parser to TypeScript' },
      { ordinal: 1, role: 'assistant', content: 'text\nPorted parser.py to parser.ts; 14 tests pass.' },
    ],
    indexed: { indexed_at: '2026-10-03T09:25:00.000Z', source_revision: '2026-10-03T09:20:01.000Z:980:1790870460000' },
  },
];

/** Writes every committed demo db under `<repo>/fixtures`. */
function writeDemoDbs(repo: string): void {
  writeSessionsDb(path.join(repo, 'fixtures', ...DEMO_SESSIONS_DB), DEMO_SESSIONS);
  writeSearchIndexDb(path.join(repo, 'fixtures', ...DEMO_SEARCH_DB), DEMO_SEARCH);
  const fleetDbs = path.join(repo, ...FLEET_DB_DIR);
  writeSessionsDb(path.join(fleetDbs, 'sessions.db'), FLEET_SESSIONS);
  writeSearchIndexDb(path.join(fleetDbs, 'session-search.db'), FLEET_SEARCH);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  // Run from the compiled copy; the repository is the working directory.
  writeDemoDbs(process.cwd());
  console.log('wrote the sessions-db and search-index fixtures and the demo fleet dbs');
}
