/**
 * The SQLite files of the demo fleet (`fixtures/fleet/lnx-u01/home/u/.cline/data/db/`), built with the real
 * DDL by the builders of sqlite-fixtures.ts (journal_mode DELETE, vacuumed). The committed files are the
 * output of this module; test/e2e/demo-fleet.test.ts asserts what a load makes of them.
 *
 * Regenerate with:
 *   npx tsc -p tsconfig.json --outDir node_modules/.cache/clinetrail-fixtures && node node_modules/.cache/clinetrail-fixtures/test/helpers/demo-fleet-dbs.js
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSearchIndexDb, writeSessionsDb, type SearchSession, type SessionsDbRow } from './sqlite-fixtures.js';

/** The spec's fixture session: its manifest is on disk, so its sessions.db row is shadowed. */
export const FLEET_K3X9Q = '1760000000000_k3x9q';
/** A session whose manifest and transcript are gone: only sessions.db and the search index know it. */
export const FLEET_GONE = '1760000500000_gone3';
/** The imported session (manifest metadata.importedFrom claude-code). */
export const FLEET_IMPORTED = '1760000800000_imp4d';

/** Folder of the db files, relative to the repository root. */
export const FLEET_DB_DIR = ['fixtures', 'fleet', 'lnx-u01', 'home', 'u', '.cline', 'data', 'db'];

export const FLEET_SESSIONS: SessionsDbRow[] = [
  {
    session_id: FLEET_K3X9Q,
    source: 'cli',
    pid: 4242,
    started_at: '2026-10-03T09:00:00.000Z',
    status: 'completed',
    interactive: 1,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    cwd: '/home/u/proj',
    workspace_root: '/home/u/proj',
    prompt: 'fix tests',
    metadata_json: { title: 'fix tests' },
    messages_path: `/home/u/.cline/data/sessions/${FLEET_K3X9Q}/${FLEET_K3X9Q}.messages.json`,
    updated_at: '2026-10-03T09:00:05.000Z',
  },
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

export const FLEET_SEARCH: SearchSession[] = [
  {
    session_id: FLEET_K3X9Q,
    started_at: '2026-10-03T09:00:00.000Z',
    workspace_root: '/home/u/proj',
    title: 'fix tests',
    prompt: 'fix tests',
    // Indexed after m3: the plain-string m1 and two block-array messages (type names and ids in the text).
    documents: [
      { ordinal: 0, role: 'user', content: 'fix tests' },
      { ordinal: 1, role: 'assistant', content: 'thinking\nrun the suite\ntool_use\ncall_1\nbash\npytest -q' },
      { ordinal: 2, role: 'user', content: 'tool_result\ncall_1\nbash\n3 passed' },
    ],
    indexed: { indexed_at: '2026-10-03T09:05:00.000Z', source_revision: '2026-10-03T09:00:05.000Z:1502:1760000003000' },
  },
  {
    session_id: FLEET_GONE,
    started_at: '2026-10-03T09:08:20.000Z',
    workspace_root: '/home/u/billing',
    title: 'dump the billing table to CSV',
    prompt: 'dump the billing table to CSV',
    documents: [
      { ordinal: 0, role: 'user', content: 'dump the billing table to CSV' },
      {
        ordinal: 1,
        role: 'assistant',
        content: 'tool_use\ncall_9\nrun_commands\npsql -c "\\copy billing to out/billing.csv csv"',
      },
    ],
    indexed: { indexed_at: '2026-10-03T09:15:00.000Z', source_revision: '2026-10-03T09:12:00.000Z:2210:1760000720000' },
  },
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

/** Writes sessions.db and session-search.db of the demo fleet under `<repo>/fixtures/fleet`. */
export function writeFleetDbs(repo: string): void {
  const dir = path.join(repo, ...FLEET_DB_DIR);
  writeSessionsDb(path.join(dir, 'sessions.db'), FLEET_SESSIONS);
  writeSearchIndexDb(path.join(dir, 'session-search.db'), FLEET_SEARCH);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  // Run from the compiled copy; the repository is the working directory.
  writeFleetDbs(process.cwd());
  console.log(`wrote ${path.join(...FLEET_DB_DIR)}/sessions.db and session-search.db`);
}
