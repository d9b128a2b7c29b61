/**
 * The one row schema every reader yields (DESIGN.md "The row schema"), the source a reader is given,
 * and the image-relative path of a file. The helpers that stamp provenance on a row are readers/common/rows.ts.
 */
import * as path from 'node:path';
import type { AgentId } from './root-kinds.js';
import type { SourceRole, StoreId } from './stores.js';

/** Store ids: the `store` column and partition folder names, derived from the store specification (core/stores.ts). */
export type { SourceRole, StoreId };

/**
 * Where a row's time comes from, the `timestamp_source` column (its one definition is the column's doc,
 * core/columns.ts): what the source wrote for the record (`recorded`), a local wall clock with no zone
 * (`local_clock`, read in the host's --host-tz zone), another record's time (`derived`), or the file's
 * modification time (`file_mtime`), which a copy of the evidence moves.
 */
export const TIMESTAMP_SOURCES = ['recorded', 'local_clock', 'derived', 'file_mtime'] as const;
export type TimestampSource = (typeof TIMESTAMP_SOURCES)[number];

export type TurnType = 'user' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result' | 'system';

/** One record of the timeline. Column names are the Parquet and SQL names. */
export interface Row {
  host: string;
  store: StoreId;
  /**
   * The home as the machine names it, `/` separated: `C:/Users/alice` (from a KAPE tree's `C` folder or a
   * Velociraptor collection's `C:`), `home/alice`, `Users/alice` (discover/logical-home.ts).
   */
  home: string;
  /** The home's user (`alice`, `root`); null when its layout does not say whose it is (discover/logical-home.ts). */
  user: string | null;
  /** Whose store: `vscode`, `cursor`, `vscode-server`, ..., or `cline` for `~/.cline/data`. */
  client: string;
  /** The agent of the Cline family the record is of: `cline`, `roo-code`, `kilo-code`; null where no agent is known (a problem of a file shared by all). */
  agent: AgentId | null;
  /** Path of the file relative to the image root, `/` separated. */
  source_file: string;
  /** 1-based position of the record in the file (array index + 1, line number, rowid, ordinal + 1, place in a git pack). */
  source_line: number | null;
  /** 0-based position of the row among the rows of one record (content blocks of one message). */
  source_seq: number;
  source_role: SourceRole;
  /** Milliseconds since the Unix epoch, UTC; null where the source records no time. */
  timestamp_utc: number | null;
  /** Where timestamp_utc comes from (TIMESTAMP_SOURCES); null exactly when timestamp_utc is null. */
  timestamp_source: TimestampSource | null;
  session_id: string | null;
  project_path: string | null;
  git_branch: string | null;
  turn_type: TurnType;
  /** The source's own discriminator: `say:command`, `ask:tool`, `tool_use`, `model`, `parser`, ... */
  kind: string;
  model: string | null;
  provider: string | null;
  tool_name: string | null;
  tool_use_id: string | null;
  text: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  is_error: boolean | null;
  /**
   * 1-based position of the row among the rows its partition wrote for its source file, in the order the
   * reader yielded them. Stamped by the partition writer (load/partition.ts), never by a reader: with
   * host, store and source_file it names the row (sql/01_row_macros.sql `row_id_of`). Null only in rows
   * built outside a partition write (tests).
   */
  file_row: number | null;
  // Facts a reader also prints in `text`, as columns, so models never parse texts back.
  /** Permission mode of a task_metadata model_usage entry (`plan`, `act`): where recorded. */
  permission_mode: string | null;
  /** Where a `sync` row says the transcript went: `cline-cloud`, `<adapter> bucket <b> object <o>`, `enterprise upload queue: <key>`. Null when it did not leave (a queue item not yet synced). */
  sync_target: string | null;
  /** `remote` on an `origin` row (a Cline Cloud session); null elsewhere. */
  session_origin: string | null;
  /** The agent an SDK session was imported from (manifest metadata.importedFrom.tool), on its `session_start` row. */
  imported_from: string | null;
  /** On a row of one setting (permission, task_settings, agenda_automation, hook_result): its name, as the file spells it. */
  setting_name: string | null;
  /** The value of `setting_name`, as the row text prints it. */
  setting_value: string | null;
  /** The task that started this one as a subtask (Roo Code and Kilo Code orchestrator `parentTaskId`), where recorded. */
  parent_session_id: string | null;
}

/** One Cline store root found in a home, with the files of one store under it. */
export interface Source {
  host: string;
  store: StoreId;
  role: SourceRole;
  /** Absolute path of the host image root. */
  imageRoot: string;
  /** The home as the machine names it (Row.home): `C:/Users/alice`; '' when the image is the home. */
  home: string;
  /** The home's folder relative to the image root, as found (`C/Users/alice` in a KAPE tree): where `home` lies. */
  homeFolder: string;
  /** The home's user (Row.user). */
  user: string | null;
  client: string;
  /** The agent whose store the root is (its root kind's); null where it differs from record to record (the editor's state databases). */
  agent: AgentId | null;
  /** Absolute path of the store root: `.../globalStorage/saoudrizwan.claude-dev` or `.../.cline/data`. */
  root: string;
  /** Absolute paths of the regular files of this store under `root`, sorted. */
  files: string[];
  /**
   * The IANA zone of the host's local clocks (`--host-tz HOST=Area/City`, core/time-zone.ts): a source's
   * times written as a wall clock with no zone are read in it. Absent: they are read as if UTC.
   */
  timeZone?: string;
  /** Set when the image is an archive or an encoded collection: its files are copies of its members under `imageRoot`. */
  archive?: ArchiveRef;
}

/**
 * The archive (or collection folder) a source's files were copied from. Its size and mtime stand for
 * every member in the partition's input signature: an unchanged archive is not opened again.
 */
export interface ArchiveRef {
  /** The archive as the load was given it (`--fleet` entry or `--host NAME=PATH`). */
  path: string;
  format: 'zip' | 'tar' | 'folder';
  size: number;
  mtime_ms: number;
  /** Image-relative (logical, decoded) path → the member's path as stored in the archive (raw). */
  members: Record<string, string>;
  /** Image-relative path → the member's uncompressed size: what reading it costs (load/jobs.ts), before it is copied. */
  member_sizes: Record<string, number>;
}

/**
 * How a line of text names one member of an archive (or of an encoded collection folder): the archive as
 * given, `!`, the member as stored, e.g. `/cases/alice.zip!C/Users/alice/.../ui_messages.json`. Never the
 * path of its copy in the load's private folder, which is gone when the load ends.
 */
export function memberText(archive: string, member: string): string {
  return `${archive}!${member}`;
}

/** The fields a reader decides; provenance comes from the source and the file. */
export type RowFields = Partial<
  Omit<Row, 'host' | 'store' | 'home' | 'user' | 'client' | 'source_file' | 'source_role' | 'file_row'>
> &
  Pick<Row, 'turn_type' | 'kind'>;

let lastPath = { root: '', file: '', rel: '' };

/** Image-relative, `/`-separated path of an absolute path inside the image (the last answer is kept: rows come file by file). */
export function imagePath(source: Pick<Source, 'imageRoot'>, file: string): string {
  if (file !== lastPath.file || source.imageRoot !== lastPath.root) {
    lastPath = { root: source.imageRoot, file, rel: path.relative(source.imageRoot, file).split(path.sep).join('/') };
  }
  return lastPath.rel;
}
