/**
 * The reader of each store of the store specification (core/stores.ts), by id. `satisfies` makes the
 * compiler check that every store has exactly one reader.
 */
import type { StoreId } from '../core/stores.js';
import type { Reader } from './shapes/rows.js';
import { readCheckpoints } from './checkpoints.js';
import { readClineLogs } from './cline-logs.js';
import { readClineTasks } from './cline-tasks.js';
import { readCliNotices } from './cli-notices.js';
import { readConnectorsDb } from './connectors-db.js';
import { readCredentials } from './credentials.js';
import { readCronDb } from './cron-db.js';
import { readHooksLog } from './hooks-log.js';
import { readHubEvents } from './hub-events.js';
import { readHubRuns } from './hub-runs.js';
import { readInputHistory } from './input-history.js';
import { readKiloTasks } from './kilo-tasks/reader.js';
import { readLocks } from './locks.js';
import { readSdkSessions } from './sdk-sessions.js';
import { readSearchIndex } from './search-index.js';
import { readSessionsDb } from './sessions-db.js';
import { readRooTasks } from './roo-tasks/reader.js';
import { readSettings } from './settings.js';
import { readSyncQueue } from './sync-queue.js';
import { readTasksDb } from './tasks-db.js';
import { readTeamsDb } from './teams-db.js';
import { readVscodeState } from './vscode-state/reader.js';
import { readVscodeTasks } from './vscode-tasks.js';
import { readWorkspaceState } from './workspace-state.js';

/**
 * The `discovery` partition has no files of its own: its rows are discovery's problems. The `unread`
 * store's files are listed in its inventory (and so in `files`) and give no row.
 */
async function* readNothing(): AsyncGenerator<never> {}

export const READERS = {
  'vscode-tasks': readVscodeTasks,
  'cline-tasks': readClineTasks,
  'roo-tasks': readRooTasks,
  'kilo-tasks': readKiloTasks,
  'sdk-sessions': readSdkSessions,
  'sessions-db': readSessionsDb,
  'search-index': readSearchIndex,
  'hub-events': readHubEvents,
  'input-history': readInputHistory,
  'hooks-log': readHooksLog,
  'cline-logs': readClineLogs,
  'sync-queue': readSyncQueue,
  settings: readSettings,
  credentials: readCredentials,
  'cli-notices': readCliNotices,
  'hub-runs': readHubRuns,
  'teams-db': readTeamsDb,
  'tasks-db': readTasksDb,
  'cron-db': readCronDb,
  'connectors-db': readConnectorsDb,
  locks: readLocks,
  'workspace-state': readWorkspaceState,
  checkpoints: readCheckpoints,
  'vscode-state': readVscodeState,
  unread: readNothing,
  discovery: readNothing,
} as const satisfies Record<StoreId, Reader>;
