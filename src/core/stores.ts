/**
 * The store specification: one entry per store (the `store` column and partition folder), from which the rest is derived:
 * the `StoreId` type, discovery's file matching (discover/store-files.ts), the warehouse's `stores`
 * table (warehouse/stores-table.ts) and the test helpers. The reader of each store is the entry of
 * the same id in readers/registry.ts, which the compiler checks is complete; it is kept there because
 * discovery and the warehouse must not load reader code (docs/ARCHITECTURE.md "Adding a store").
 */
import type { RootKindId } from './root-kinds.js';

/** `primary` stores are the evidence itself; `secondary` stores repeat it, and the duplicate rule may drop their rows. */
export type SourceRole = 'primary' | 'secondary';

export interface StoreSpec {
  /** The `store` column and partition folder name: a contract with analysts' saved queries. */
  id: string;
  role: SourceRole;
  /** One line: what the store holds. */
  description: string;
  /**
   * Its files under each root kind it lives in (core/root-kinds.ts): globs relative to the root
   * (core/glob.ts). The first segment of a glob is a plain folder name: discovery lists only the
   * folders some glob names, and a folder whose files are one store's is that store's (its problems
   * become that store's `parser:` rows). Where globs of two stores match one file, the first store wins.
   */
  files: { readonly [K in RootKindId]?: readonly string[] };
  /** Files its globs match but that are not read. */
  except?: readonly string[];
  /** Which of its files are transcripts: `sessions.has_transcript`, the transcript side of the duplicate rule. */
  transcripts?: readonly string[];
}

const TASK_FILES = ['tasks/*/{ui_messages,api_conversation_history,task_metadata,settings}.json', 'state/taskHistory.json'];
const TASK_TRANSCRIPTS = ['tasks/*/ui_messages.json', 'tasks/*/api_conversation_history.json'];
/**
 * The task files of Roo Code and Kilo Code (their GlobalFileNames): no settings.json, and since Roo Code
 * 3.49 each task's history item in its folder with `tasks/_index.json`, a cache of them.
 */
const FORK_TASK_FILES = ['tasks/*/{ui_messages,api_conversation_history,task_metadata,history_item}.json', 'tasks/_index.json'];
/**
 * The settings files of Roo Code and Kilo Code, under every name they had (their GlobalFileNames,
 * `src/utils/migrateSettings.ts`): MCP settings, and custom modes in YAML since May 2025, in JSON before
 * (the old files stay beside the new). A workspace's own modes (`.roomodes`, `.kilocodemodes`) lie in the
 * user's project, which no root kind is; the extension merges them into its globalState `customModes`,
 * read from the editor's state database.
 */
const FORK_SETTINGS = [
  'settings/{cline_,}mcp_settings.json',
  'settings/{cline_,}custom_modes.json',
  'settings/custom_modes.yaml',
];
/**
 * The other files of a Roo Code or Kilo Code folder, listed by `unread`: beside its own folder, its
 * other settings and its tasks' other files. Not its `puppeteer` (the browser it downloads) nor
 * its tasks' checkpoint repositories (`tasks/<id>/checkpoints`), which no store reads yet.
 */
const FORK_OTHER_FILES = ['*', 'settings/*', 'tasks/*/*'];
/** An SQLite database with its journal, WAL and shared-memory files. */
const SQLITE = '{,-wal,-shm,-journal}';
/**
 * Every file of Cline's shadow git folders, `checkpoints/<cwdHash>/.git/...`, down to 8 levels below
 * `.git` (`logs/refs/heads/<branch>` is 4; globs have no `**`, so each depth is one glob).
 */
const SHADOW_GIT = Array.from({ length: 8 }, (_, i) => `checkpoints/*/.git${'/*'.repeat(i + 1)}`);

export const STORES = [
  {
    id: 'vscode-tasks',
    role: 'primary',
    description: "legacy tasks of Cline's VS Code extension: messages, API history, metadata, task history",
    files: { 'vscode-globalstorage': TASK_FILES },
    transcripts: TASK_TRANSCRIPTS,
  },
  {
    id: 'cline-tasks',
    role: 'primary',
    description: 'legacy tasks under ~/.cline/data (CLI v1, JetBrains)',
    files: { 'cline-data': TASK_FILES },
    transcripts: TASK_TRANSCRIPTS,
  },
  {
    id: 'roo-tasks',
    role: 'primary',
    description: "Roo Code's tasks (a fork of Cline): messages, API history, metadata, task history with orchestrator subtasks",
    files: { 'roo-globalstorage': FORK_TASK_FILES },
    transcripts: TASK_TRANSCRIPTS,
  },
  {
    id: 'kilo-tasks',
    role: 'primary',
    description:
      "Kilo Code's tasks (a fork of Roo Code): messages, API history, metadata, task history with orchestrator subtasks",
    files: { 'kilo-globalstorage': FORK_TASK_FILES },
    transcripts: TASK_TRANSCRIPTS,
  },
  {
    id: 'sdk-sessions',
    role: 'primary',
    description: 'SDK sessions of the CLI and the extension: manifests, lead, subagent and teammate transcripts',
    files: { 'cline-data': ['sessions/*/*.json'] },
    except: ['sessions/*/*.compaction.json'],
    transcripts: ['sessions/*/*.messages.json'],
  },
  {
    id: 'sessions-db',
    role: 'primary',
    description: 'the SDK session database (rows kept only for sessions whose manifest is gone)',
    files: { 'cline-data': [`db/sessions.db${SQLITE}`] },
  },
  {
    id: 'search-index',
    role: 'secondary',
    description: 'the FTS5 session search index',
    files: { 'cline-data': [`db/session-search.db${SQLITE}`] },
  },
  {
    id: 'hub-events',
    role: 'secondary',
    description:
      "the 3.x CLI hub's event log (7 days): session starts and ends, run results with the session's messages, hook calls",
    files: { 'cline-data': [`db/hub-events.db${SQLITE}`, `db/hub-events-*.db${SQLITE}`] },
  },
  {
    id: 'input-history',
    role: 'secondary',
    description: "the CLI's prompt history (last 20 prompts)",
    files: { 'cline-data': ['cache/user_input_history.jsonl'] },
  },
  {
    id: 'hooks-log',
    role: 'secondary',
    description: 'the hook audit log',
    files: { 'cline-data': ['logs/hooks.jsonl'] },
  },
  {
    id: 'cline-logs',
    role: 'primary',
    description:
      "Cline's own logs: the 1.x CLI's cline-core and host bridge logs, the 2.x CLI log, the 3.x CLI and hub daemon logs",
    files: {
      'cline-data': ['logs/cline*.log', 'logs/hub-daemon.log'],
      'cline-home': ['logs/*.log'],
    },
  },
  {
    id: 'sync-queue',
    role: 'primary',
    description: 'the enterprise prompt upload queue',
    files: { 'vscode-globalstorage': ['cache/sync-queue.json'] },
  },
  {
    id: 'settings',
    role: 'primary',
    description: "permission, MCP and Cline Cloud settings; Roo Code's and Kilo Code's custom modes",
    files: {
      'cline-data': [
        'globalState.json',
        'settings/global-settings.json',
        'settings/cline_mcp_settings.json',
        'cloud-pending-starts/*.json',
      ],
      'vscode-globalstorage': ['settings/cline_mcp_settings.json'],
      'roo-globalstorage': FORK_SETTINGS,
      'kilo-globalstorage': FORK_SETTINGS,
    },
  },
  {
    id: 'vscode-state',
    role: 'primary',
    description:
      "the editor's state databases: each agent's globalState and workspaceState (task history, settings) and its secrets' key names",
    files: {
      'vscode-user': [
        `globalStorage/state.vscdb{,.backup}${SQLITE}`,
        `profiles/*/globalStorage/state.vscdb{,.backup}${SQLITE}`,
        `workspaceStorage/*/state.vscdb{,.backup}${SQLITE}`,
        'workspaceStorage/*/workspace.json',
      ],
    },
  },
  {
    id: 'credentials',
    role: 'primary',
    description: 'files that hold credentials (key names only are read)',
    files: {
      'cline-data': ['secrets.json', 'settings/providers.json', 'connectors/settings.json'],
      'vscode-globalstorage': ['cache/remote_config_*.json'],
      'documents-cline': ['webhook_config.json'],
    },
  },
  {
    id: 'cli-notices',
    role: 'primary',
    description: 'which CLI notices (the ClinePass intro) the interactive CLI has shown',
    files: { 'cline-data': ['settings/cli-notices.json'] },
  },
  {
    id: 'hub-runs',
    role: 'primary',
    description: "the 3.x hub's run queue: which prompt ran in which session, for which client, when, how it ended",
    files: { 'cline-data': [`db/hub-runs.db${SQLITE}`, `db/hub-runs-*.db${SQLITE}`] },
  },
  {
    id: 'teams-db',
    role: 'primary',
    description: '3.x agent teams: teammates, their tasks, runs, outcomes and event history (messages between agents)',
    files: { 'cline-data': [`db/teams.db${SQLITE}`] },
  },
  {
    id: 'tasks-db',
    role: 'primary',
    description: '3.x agenda: tasks put aside for an agent to run, their runs, and the automation policy',
    files: { 'cline-data': [`db/tasks.db${SQLITE}`] },
  },
  {
    id: 'cron-db',
    role: 'primary',
    description: '3.x scheduled and event-triggered agent runs: specs (schedule, prompt, workspace, enabled), runs, events',
    files: { 'cline-data': [`db/cron.db${SQLITE}`] },
  },
  {
    id: 'connectors-db',
    role: 'primary',
    description: '3.x chat connectors (Slack, Telegram, ...) and their reconnect arguments (key and flag names only)',
    files: { 'cline-data': [`db/connectors.db${SQLITE}`] },
  },
  {
    id: 'locks',
    role: 'primary',
    description: 'which process held a task, a core instance or the 3.x hub: locks.db, hub discovery and lock files',
    files: {
      'cline-data': [
        `locks.db${SQLITE}`,
        'locks/hub/{,owners/}*.json',
        'locks/hub/{,owners/}*.lock/owner.json',
        'locks/hub/{,owners/}*.instance.lock',
      ],
    },
  },
  {
    id: 'workspace-state',
    role: 'primary',
    description: "the legacy engine's per-workspace state: which rule files and workflows were toggled on",
    files: { 'cline-data': ['workspace/workspaceState.json', 'workspaces/*/workspaceState.json'] },
  },
  {
    id: 'checkpoints',
    role: 'primary',
    description: "Cline's checkpoint shadow git repositories, one per workspace: each commit a snapshot of the workspace",
    files: { 'cline-data': SHADOW_GIT, 'vscode-globalstorage': SHADOW_GIT },
  },
  {
    // Last of the stores with files: a file is this store's only when no store before it claims it.
    id: 'unread',
    role: 'primary',
    description:
      'every other file under ~/.cline and the Roo Code and Kilo Code folders: listed in `files` (size, mtime, SHA-256) with no rows, so nothing there goes unseen',
    files: {
      'cline-data': ['**'],
      'cline-home': ['**'],
      'roo-globalstorage': FORK_OTHER_FILES,
      'kilo-globalstorage': FORK_OTHER_FILES,
    },
    // `data/` is the cline-data root's; `worktrees/` holds the CLI's checkouts of the user's repositories
    except: ['data/**', 'worktrees/**'],
  },
  {
    id: 'discovery',
    role: 'primary',
    description: 'not a Cline store: parser rows of entries discovery found outside every store root and could not search',
    files: {},
  },
] as const satisfies readonly StoreSpec[];

/** Store ids: the `store` column and partition folder names. */
export type StoreId = (typeof STORES)[number]['id'];

/** The specification of every store, by id. */
export const STORE_SPECS = Object.fromEntries(STORES.map((s) => [s.id, s as StoreSpec])) as Record<StoreId, StoreSpec>;

/** The role of every store, by id. */
export const STORE_ROLES = Object.fromEntries(STORES.map((s) => [s.id, s.role])) as Record<StoreId, SourceRole>;
