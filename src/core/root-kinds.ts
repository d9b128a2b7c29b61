/**
 * Root kinds: the folders a Cline store root can be, as data. Discovery (discover/discover.ts) finds
 * them by these names; the store specification (core/stores.ts) says which files of which store lie
 * under each. One folder can be the root, or hold the root, of several kinds: `~/.cline` is the
 * `cline-home` root and holds the `cline-data` root (`~/.cline/data`). A folder of another extension id in globalStorage (Roo Code `rooveterinaryinc.roo-cline`,
 * Kilo Code `kilocode.kilo-code`) is no root kind: such stores would be a root kind of their own.
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
}

export const ROOT_KINDS = [
  {
    id: 'vscode-globalstorage',
    names: ['saoudrizwan.claude-dev', 'saoudrizwan.cline-nightly'],
    parent: 'globalStorage',
    description:
      "`<editor user data>/User/globalStorage/<id>` of Cline's VS Code extension (stable or nightly id), in any editor of the VS Code family",
  },
  {
    id: 'cline-data',
    names: ['.cline'],
    sub: 'data',
    description: '`~/.cline/data` of the CLI, JetBrains and the SDK',
  },
  {
    id: 'cline-home',
    names: ['.cline'],
    requires: 'data',
    description: '`~/.cline` itself, for the files beside `data/`: the 1.x CLI logs in `~/.cline/logs`',
  },
  {
    id: 'documents-cline',
    names: ['Cline'],
    parent: 'Documents',
    description: '`<home>/Documents/Cline` (or `<home>/OneDrive.../Documents/Cline`), shared by every Cline client',
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
