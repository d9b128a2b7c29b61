/**
 * Root kinds: the folders a store root of the Cline family can be, as data. Discovery (discover/discover.ts) finds
 * them by these names; the store specification (core/stores.ts) says which files of which store lie
 * under each. One folder can be the root, or hold the root, of several kinds: `~/.cline` is the
 * `cline-home` root and holds the `cline-data` root (`~/.cline/data`). Roo Code and Kilo Code, forks of
 * Cline, keep their stores in their own extension folders of globalStorage, a root kind each; the
 * editor's own `User` folder holds VS Code's state databases, where every extension keeps its globalState.
 */

export interface RootKind {
  id: string;
  /** Names of the folder that is the root (or that holds it, with `sub`). */
  names: readonly string[];
  /** The name the folder's parent must have; any parent when absent. */
  parent?: string;
  /** The root is this child folder of the named one (`.cline` → `.cline/data`). */
  sub?: string;
  /** The named folder is a root only when it holds this child folder (a project's `.cline` holds no `data/`). */
  requires?: string;
  /** One line: what the root is. */
  description: string;
  /** The agent whose store the root is; absent where the agent differs from record to record (the editor's state databases). */
  agent?: AgentId;
  /** The folder is searched for further roots inside it (`User` holds `globalStorage/<extension id>`); else the walk stops at a root. */
  walkInto?: boolean;
}

/** The agents of the Cline family: Cline itself and its forks Roo Code and Kilo Code. */
export type AgentId = 'cline' | 'roo-code' | 'kilo-code';

/**
 * Extension ids of each agent's VS Code extension, lower case: the globalStorage folder name (VS Code lowers it)
 * and, compared without case, the key of its globalState in `state.vscdb` (VS Code keeps the publisher's case
 * there: `RooVeterinaryInc.roo-cline`).
 */
export const AGENT_EXTENSIONS: Readonly<Record<AgentId, readonly string[]>> = {
  cline: ['saoudrizwan.claude-dev', 'saoudrizwan.cline-nightly'],
  'roo-code': ['rooveterinaryinc.roo-cline'],
  'kilo-code': ['kilocode.kilo-code'],
};

export const ROOT_KINDS = [
  {
    id: 'vscode-globalstorage',
    names: AGENT_EXTENSIONS.cline,
    parent: 'globalStorage',
    description:
      "`<editor user data>/User/globalStorage/<id>` of Cline's VS Code extension (stable or nightly id), in any editor of the VS Code family",
    agent: 'cline',
  },
  {
    id: 'roo-globalstorage',
    names: AGENT_EXTENSIONS['roo-code'],
    parent: 'globalStorage',
    description: "`<editor user data>/User/globalStorage/rooveterinaryinc.roo-cline` of Roo Code's VS Code extension",
    agent: 'roo-code',
  },
  {
    id: 'kilo-globalstorage',
    names: AGENT_EXTENSIONS['kilo-code'],
    parent: 'globalStorage',
    description: "`<editor user data>/User/globalStorage/kilocode.kilo-code` of Kilo Code's VS Code extension",
    agent: 'kilo-code',
  },
  {
    id: 'vscode-user',
    names: ['User'],
    requires: 'globalStorage',
    walkInto: true,
    description:
      "`<editor user data>/User` of any editor of the VS Code family: its state databases (`globalStorage/state.vscdb`, `workspaceStorage/<hash>/state.vscdb`), which hold every extension's globalState and workspaceState",
  },
  {
    id: 'cline-data',
    names: ['.cline'],
    sub: 'data',
    description: '`~/.cline/data` of the CLI, JetBrains and the SDK',
    agent: 'cline',
  },
  {
    id: 'cline-home',
    names: ['.cline'],
    requires: 'data',
    description: '`~/.cline` itself, for the files beside `data/`: the 1.x CLI logs in `~/.cline/logs`',
    agent: 'cline',
  },
  {
    id: 'documents-cline',
    names: ['Cline'],
    parent: 'Documents',
    description: '`<home>/Documents/Cline` (or `<home>/OneDrive.../Documents/Cline`), shared by every Cline client',
    agent: 'cline',
  },
] as const satisfies readonly RootKind[];

export type RootKindId = (typeof ROOT_KINDS)[number]['id'];

/** Every root kind a folder `name` inside a folder named `parentName` is (or holds, with `sub`), in ROOT_KINDS order; empty when none. */
export function rootKindsAt(parentName: string, name: string): Array<(typeof ROOT_KINDS)[number]> {
  return ROOT_KINDS.filter((kind) => {
    const parent: string | undefined = 'parent' in kind ? kind.parent : undefined;
    return (kind.names as readonly string[]).includes(name) && (parent === undefined || parent === parentName);
  });
}

/** The agent whose store a root of `kind` is; null for the editor's state databases, whose records name their agent. */
export function rootKindAgent(kind: RootKindId): AgentId | null {
  const found: RootKind | undefined = ROOT_KINDS.find((k) => k.id === kind);
  return found?.agent ?? null;
}
