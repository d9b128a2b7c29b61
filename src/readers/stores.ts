/**
 * The store ids (partition values) and their roles: `primary` stores are the evidence itself,
 * `secondary` stores repeat it and are what the duplicate rule (sql/20 to sql/26) may drop.
 * `discovery` is not a Cline store: it holds the `parser:` rows of entries discovery found outside any
 * store root and could not search (a link out of the image, a tree too deep).
 */
import type { SourceRole, StoreId } from '../core/row.js';

export const STORE_ROLES: Record<StoreId, SourceRole> = {
  'vscode-tasks': 'primary',
  'cline-tasks': 'primary',
  'sdk-sessions': 'primary',
  'sessions-db': 'primary',
  'search-index': 'secondary',
  'input-history': 'secondary',
  'hooks-log': 'secondary',
  'sync-queue': 'primary',
  settings: 'primary',
  credentials: 'primary',
  discovery: 'primary',
};

/** Every store id, in a fixed order. */
export const STORE_IDS = Object.keys(STORE_ROLES) as StoreId[];
