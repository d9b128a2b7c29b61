/**
 * Root kinds: the folders a Cline store root can be, as data. Discovery (discover/discover.ts) finds
 * them by these names; the store specification (core/stores.ts) says which files of which store lie
 * under each. A folder of another extension id in globalStorage (Roo Code `rooveterinaryinc.roo-cline`,
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
    id: 'documents-cline',
    names: ['Cline'],
    parent: 'Documents',
    description: '`<home>/Documents/Cline` (or `<home>/OneDrive.../Documents/Cline`), shared by every Cline client',
  },
] as const satisfies readonly RootKind[];

export type RootKindId = (typeof ROOT_KINDS)[number]['id'];

/** The root kind a folder `name` inside a folder named `parentName` is, or null. */
export function rootKindAt(parentName: string, name: string): (typeof ROOT_KINDS)[number] | null {
  for (const kind of ROOT_KINDS) {
    const parent: string | undefined = 'parent' in kind ? kind.parent : undefined;
    if ((kind.names as readonly string[]).includes(name) && (parent === undefined || parent === parentName)) return kind;
  }
  return null;
}
