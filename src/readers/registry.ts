/**
 * The reader of each store of the store specification (core/stores.ts), by id: each store's folder
 * (`readers/<store>/reader.ts`; the four legacy task stores share `legacy-tasks/`). `satisfies` makes the
 * compiler check that every store has exactly one reader.
 */
import type { StoreId } from '../core/stores.js';
import type { Reader } from './common/rows.js';
import { readCheckpoints } from './checkpoints/reader.js';
import { readClineLogs } from './cline-logs/reader.js';
import { readCliNotices } from './cli-notices/reader.js';
import { readConnectorsDb } from './connectors-db/reader.js';
import { readCredentials } from './credentials/reader.js';
import { readCronDb } from './cron-db/reader.js';
import { readHooksLog } from './hooks-log/reader.js';
import { readHubEvents } from './hub-events/reader.js';
import { readHubRuns } from './hub-runs/reader.js';
import { readInputHistory } from './input-history/reader.js';
import { readLegacyTasks } from './legacy-tasks/reader.js';
import { readLocks } from './locks/reader.js';
import { readSdkSessions } from './sdk-sessions/reader.js';
import { readSearchIndex } from './search-index/reader.js';
import { readSessionsDb } from './sessions-db/reader.js';
import { readSettings } from './settings/reader.js';
import { readSyncQueue } from './sync-queue/reader.js';
import { readTasksDb } from './tasks-db/reader.js';
import { readTeamsDb } from './teams-db/reader.js';
import { readVscodeState } from './vscode-state/reader.js';
import { readWorkspaceState } from './workspace-state/reader.js';

/**
 * The `discovery` partition has no files of its own: its rows are discovery's problems. The `unread`
 * store's files are listed in its inventory (and so in `files`) and give no row.
 */
async function* readNothing(): AsyncGenerator<never> {}

export const READERS = {
  // Cline's legacy task layout, which Roo Code and Kilo Code kept (legacy-tasks/README.md)
  'vscode-tasks': readLegacyTasks,
  'cline-tasks': readLegacyTasks,
  'roo-tasks': readLegacyTasks,
  'kilo-tasks': readLegacyTasks,
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
