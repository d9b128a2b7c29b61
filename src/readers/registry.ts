/** The reader registry as plain data: one entry per store id. */
import type { StoreId } from '../core/row.js';
import type { Reader } from './shapes/rows.js';
import { readClineTasks } from './cline-tasks.js';
import { readCredentials } from './credentials.js';
import { readHooksLog } from './hooks-log.js';
import { readInputHistory } from './input-history.js';
import { readSdkSessions } from './sdk-sessions.js';
import { readSearchIndex } from './search-index.js';
import { readSessionsDb } from './sessions-db.js';
import { readSettings } from './settings.js';
import { readSyncQueue } from './sync-queue.js';
import { readVscodeTasks } from './vscode-tasks.js';

export { STORE_IDS, STORE_ROLES } from './stores.js';

/** The `discovery` partition has no files of its own: its rows are discovery's problems. */
async function* readNothing(): AsyncGenerator<never> {}

export const READERS: Record<StoreId, Reader> = {
  'vscode-tasks': readVscodeTasks,
  'cline-tasks': readClineTasks,
  'sdk-sessions': readSdkSessions,
  'sessions-db': readSessionsDb,
  'search-index': readSearchIndex,
  'input-history': readInputHistory,
  'hooks-log': readHooksLog,
  'sync-queue': readSyncQueue,
  settings: readSettings,
  credentials: readCredentials,
  discovery: readNothing,
};
