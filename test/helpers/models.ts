/**
 * Test helper for the SQL models: an in-memory DuckDB with a TABLE of hand-made rows (exactly
 * core/records.ts COLUMNS) as the Parquet parts, and empty tables as the inventories, runs and secrets
 * files; every model runs on them, the raw layer (sql/00 to sql/05, so `row_id`) and the `stores` table
 * of the store specification (sql/06) included. Default source files and roles come from that specification.
 */
import { afterEach } from 'vitest';
import { DuckDBInstance, type Json } from '@duckdb/node-api';
import { COLUMNS, columnList, FILE_SHAPE, RUN_SHAPE, SECRET_SHAPE } from '../../src/core/records.js';
import { runModels } from '../../src/warehouse/build.js';
import type { Row } from '../../src/core/row.js';
import type { RootKindId } from '../../src/core/root-kinds.js';
import { STORE_ROLES, STORE_SPECS, type StoreId } from '../../src/core/stores.js';
import { storeOf } from '../../src/discover/discover.js';
import { homeUser } from '../../src/discover/logical-home.js';
import { recordCommentPlaceholders } from '../../src/warehouse/record-comments.js';
import { sqlString } from '../../src/warehouse/sql-literal.js';
import { specPlaceholders } from '../../src/warehouse/stores-table.js';

/** A hand-made raw row: any Row field, with timestamp_utc as epoch ms or an ISO string. */
export type TestRow = Partial<Omit<Row, 'timestamp_utc'>> & { timestamp_utc?: number | string | null };

/** One result row, as DuckDB's JSON conversion gives it (BIGINT and HUGEINT come back as strings). */
export type ResultRow = Record<string, Json>;

export interface ModelDb {
  /** Rows of a query as plain objects. */
  query(sql: string): Promise<ResultRow[]>;
  close(): void;
}

const DEFAULT_HOME = 'home/u';
const VSCODE_ROOT = '.config/Code/User/globalStorage/saoudrizwan.claude-dev';

/** Image-relative paths of the store files, as the readers write source_file. */
export const files = {
  sdkManifest: (sid: string, home = DEFAULT_HOME) => `${home}/.cline/data/sessions/${sid}/${sid}.json`,
  /** The lead transcript, or a subagent's `<agent>.messages.json` in the same session folder. */
  sdkMessages: (sid: string, agent: string = sid, home = DEFAULT_HOME) =>
    `${home}/.cline/data/sessions/${sid}/${agent}.messages.json`,
  uiMessages: (sid: string, home = DEFAULT_HOME) => `${home}/${VSCODE_ROOT}/tasks/${sid}/ui_messages.json`,
  apiHistory: (sid: string, home = DEFAULT_HOME) => `${home}/${VSCODE_ROOT}/tasks/${sid}/api_conversation_history.json`,
  taskMetadata: (sid: string, home = DEFAULT_HOME) => `${home}/${VSCODE_ROOT}/tasks/${sid}/task_metadata.json`,
  taskHistory: (home = DEFAULT_HOME) => `${home}/${VSCODE_ROOT}/state/taskHistory.json`,
  syncQueue: (home = DEFAULT_HOME) => `${home}/${VSCODE_ROOT}/cache/sync-queue.json`,
  clineUiMessages: (sid: string, home = DEFAULT_HOME) => `${home}/.cline/data/tasks/${sid}/ui_messages.json`,
  sessionsDb: (home = DEFAULT_HOME) => `${home}/.cline/data/db/sessions.db`,
  searchIndex: (home = DEFAULT_HOME) => `${home}/.cline/data/db/session-search.db`,
  inputHistory: (home = DEFAULT_HOME) => `${home}/.cline/data/cache/user_input_history.jsonl`,
  hooksLog: (home = DEFAULT_HOME) => `${home}/.cline/data/logs/hooks.jsonl`,
  globalState: (home = DEFAULT_HOME) => `${home}/.cline/data/globalState.json`,
};

/** Where each root kind lies in a test home. */
const ROOTS: Record<RootKindId, (home: string) => string> = {
  'vscode-globalstorage': (home) => `${home}/${VSCODE_ROOT}`,
  'roo-globalstorage': (home) => `${home}/${VSCODE_ROOT.replace('saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline')}`,
  'kilo-globalstorage': (home) => `${home}/${VSCODE_ROOT.replace('saoudrizwan.claude-dev', 'kilocode.kilo-code')}`,
  'vscode-user': (home) => `${home}/${VSCODE_ROOT.replace('/globalStorage/saoudrizwan.claude-dev', '')}`,
  'cline-data': (home) => `${home}/.cline/data`,
  'cline-home': (home) => `${home}/.cline`,
  'documents-cline': (home) => `${home}/Documents/Cline`,
};

/** Row kinds that come from one particular file of their store rather than from its transcript (globs). */
const KIND_FILES: Record<string, string> = {
  session_start: 'sessions/*/*.json',
  model: 'sessions/*/*.json',
  sync: 'sessions/*/*.json',
  session_end: 'sessions/*/*.json',
  task_history: 'state/taskHistory.json',
  model_usage: 'tasks/*/task_metadata.json',
};

/** A file a glob of the store specification matches: `*` is the session id, `{a,b}` its first alternative. */
function exampleFile(glob: string, sid: string): string {
  return glob.replace(/\{([^,}]*)[^}]*\}/g, '$1').replace(/\*/g, sid);
}

/**
 * The file a reader of `store` would have read a row of `kind` from (core/stores.ts), under the first
 * root kind of the store: the kind's own file where the store has it, else its first transcript, else
 * its first file.
 */
function defaultFile(store: StoreId, home: string, sid: string, kind: string): string {
  if (store === 'discovery') return home;
  const spec = STORE_SPECS[store];
  const [rootKind, globs] = Object.entries(spec.files)[0] as [RootKindId, readonly string[]];
  const root = ROOTS[rootKind](home);
  const own = KIND_FILES[kind] === undefined ? null : exampleFile(KIND_FILES[kind], sid);
  if (own !== null && storeOf(own, rootKind) === store) return `${root}/${own}`;
  return `${root}/${exampleFile(spec.transcripts?.[0] ?? globs[0], sid)}`;
}

/**
 * A raw row with every column filled: given values, else the defaults (`user` that of the home, as
 * discovery gives it), else null. `file_row` is, unless
 * given, the row's position among the rows before it of the same (host, store, source_file), as the
 * partition writer numbers them; `fileRows` counts them.
 */
export function completeRow(row: TestRow, index: number, fileRows: Map<string, number> = new Map()): Record<string, unknown> {
  const store = row.store ?? 'sdk-sessions';
  const home = row.home ?? DEFAULT_HOME;
  const kind = row.kind ?? 'text';
  const ts = row.timestamp_utc;
  const host = row.host ?? 'h1';
  const sourceFile = row.source_file ?? defaultFile(store, home, row.session_id ?? 'nosession', kind);
  const fileKey = JSON.stringify([host, store, sourceFile]);
  fileRows.set(fileKey, (fileRows.get(fileKey) ?? 0) + 1);
  return {
    ...Object.fromEntries(COLUMNS.map((c) => [c.name, null])),
    ...row,
    host,
    store,
    home,
    user: row.user === undefined ? homeUser(home) : row.user,
    client: row.client ?? 'cline',
    source_file: sourceFile,
    file_row: row.file_row ?? fileRows.get(fileKey),
    source_line: row.source_line === undefined ? index + 1 : row.source_line,
    source_seq: row.source_seq ?? 0,
    source_role: row.source_role ?? STORE_ROLES[store],
    timestamp_utc: typeof ts === 'string' ? Date.parse(ts) : (ts ?? null),
    // a dated row is recorded unless the test says where its time comes from, as rowFor does
    timestamp_source: row.timestamp_source ?? (ts === null || ts === undefined ? null : 'recorded'),
    turn_type: row.turn_type ?? 'user',
    kind,
  };
}

/** SQL literal of one value for a column of DuckDB type `sql`. */
function literal(value: unknown, sql: string): string {
  if (value === null || value === undefined) return `null::${sql}`;
  switch (sql) {
    case 'VARCHAR':
      return sqlString(String(value));
    case 'BIGINT':
    case 'INTEGER':
    case 'DOUBLE':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`not a number for ${sql}: ${String(value)}`);
      return `${value}::${sql}`;
    case 'BOOLEAN':
      return value ? 'true' : 'false';
    case 'TIMESTAMPTZ':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`bad timestamp: ${String(value)}`);
      return `make_timestamptz(${value}::BIGINT * 1000)`;
    default:
      throw new Error(`no literal for type ${sql}`);
  }
}

/** Columns of raw_files, raw_runs and raw_secrets, from their shapes (core/records.ts), as the warehouse reads them. */
const ddl = (shape: Parameters<typeof columnList>[0]) =>
  columnList(shape)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
const FILE_COLUMNS = ddl(FILE_SHAPE);
const RUN_COLUMNS = ddl(RUN_SHAPE);
const SECRET_COLUMNS = ddl(SECRET_SHAPE);

/**
 * Loads `rows` as the raw rows of a fresh in-memory DuckDB and runs every model on them, in one
 * transaction as the warehouse build does (warehouse/build.ts).
 */
export async function runModelsOn(rows: TestRow[], opts: { defaults?: TestRow } = {}): Promise<ModelDb> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    // rows of a few hosts: a second thread only competes with the other test worker (the loads of the
    // hostile and e2e suites build with the warehouse's own two)
    threads: '1',
  });
  const conn = await instance.connect();
  const close = (): void => {
    conn.closeSync();
    instance.closeSync();
  };
  try {
    await conn.run(`set TimeZone = 'UTC'`);
    await conn.run(`create table event_parts (${COLUMNS.map((c) => `${c.name} ${c.sql}`).join(', ')})`);
    if (rows.length > 0) {
      const fileRows = new Map<string, number>();
      const values = rows.map((r, i) => {
        const full = completeRow({ ...opts.defaults, ...r }, i, fileRows);
        return `(${COLUMNS.map((c) => literal(full[c.name], c.sql)).join(', ')})`;
      });
      await conn.run(`insert into event_parts values ${values.join(',\n')}`);
    }
    await conn.run(`create table file_inventories (${FILE_COLUMNS})`);
    await conn.run(`create table run_records (${RUN_COLUMNS})`);
    await conn.run(`create table secret_files (${SECRET_COLUMNS})`);
    await conn.run('begin transaction');
    await runModels(conn, {
      ...specPlaceholders(),
      ...recordCommentPlaceholders(),
      events_source: 'event_parts',
      files_source: 'file_inventories',
      runs_source: 'run_records',
      secrets_source: 'secret_files',
    });
    await conn.run('commit');
  } catch (err) {
    close();
    throw err;
  }
  return {
    async query(sql: string): Promise<ResultRow[]> {
      return (await conn.runAndReadAll(sql)).getRowObjectsJson();
    },
    close,
  };
}

/** `open(rows)` for a test file: runs the models on `rows`; every database it opened is closed after each test. */
export function useModelDbs(): (rows: TestRow[]) => Promise<ModelDb> {
  const opened: ModelDb[] = [];
  afterEach(() => {
    while (opened.length) opened.pop()!.close();
  });
  return async (rows) => {
    const db = await runModelsOn(rows);
    opened.push(db);
    return db;
  };
}
