/**
 * The import rule of src/ (docs/ARCHITECTURE.md "Folders and the import rule"), checked by `make imports`.
 * An allowlist: each folder of src/ names the folders it may import (its own always); any other import
 * of src/ fails, and so does every module of a src/ folder that has no line here, so a new folder is
 * refused until it is given its place in the flow (cli -> load -> discover/evidence -> readers -> write
 * -> warehouse -> hunt/report/mcp; core/ and evidence/ are foundations).
 */
const mayImport = {
  cli: ['load', 'discover', 'readers', 'write', 'warehouse', 'hunt', 'report', 'mcp', 'evidence', 'core'],
  load: ['discover', 'readers', 'write', 'warehouse', 'hunt', 'evidence', 'core'],
  discover: ['evidence', 'core'],
  // readers/ inside: readerFolders below
  readers: ['evidence', 'core'],
  write: ['warehouse', 'evidence', 'core'],
  warehouse: ['evidence', 'core'],
  // issue 15: the hunt pack runs on the warehouse; the MCP server and the report may use it
  hunt: ['warehouse', 'evidence', 'core'],
  // issue 15: the fleet report reads the warehouse (and may use hunt/), never load, cli or mcp
  report: ['warehouse', 'hunt', 'evidence', 'core'],
  // the MCP server reads the warehouse (and the hunt pack), never a load, the CLI or the report
  mcp: ['warehouse', 'hunt', 'evidence', 'core'],
  evidence: ['core'],
  core: [],
};
/**
 * Inside readers/: each store is one folder (`readers/<store>/`, docs/ARCHITECTURE.md "Adding a store"),
 * and what stores share is in three folders, each of which may import only those listed after it here.
 * A store folder may import the shared folders and no other store's folder; only registry.ts sits beside
 * them and imports the stores.
 */
const readerShared = { shapes: ['common', 'parse'], common: ['parse'], parse: [] };
const shared = Object.keys(readerShared).join('|');
const known = Object.keys(mayImport).join('|');
const unknownFolder = `src/<folder>/ is not in mayImport of .dependency-cruiser.cjs: give it a line there and a row in docs/ARCHITECTURE.md.`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties two modules into one: split the shared part out, downstream of both.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...Object.entries(mayImport).map(([from, allowed]) => ({
      name: `${from}-imports-only-its-list`,
      severity: 'error',
      comment: `src/${from}/ may import only ${allowed.length ? allowed.map((s) => `src/${s}/`).join(', ') : 'itself'} (docs/ARCHITECTURE.md).`,
      from: { path: `^src/${from}/` },
      to: { path: '^src/', pathNot: `^src/(${[from, ...allowed].join('|')})/` },
    })),
    {
      name: 'unknown-src-folder',
      severity: 'error',
      comment: unknownFolder,
      from: { path: '^src/', pathNot: `^src/(${known})/` },
      to: {},
    },
    {
      name: 'unknown-src-folder-alone',
      severity: 'error',
      comment: unknownFolder,
      from: { path: '^src/', pathNot: `^src/(${known})/`, orphan: true },
      to: {},
    },
    {
      name: 'store-folder-imports-no-other-store',
      severity: 'error',
      comment: `A store folder readers/<store>/ may import, of readers/, only itself and ${shared.replaceAll('|', '/, ')}/: what two stores share moves to shapes/ (Cline records) or common/ (helpers).`,
      from: { path: '^src/readers/([^/]+)/', pathNot: `^src/readers/(${shared})/` },
      to: { path: '^src/readers/', pathNot: `^src/readers/($1|${shared})/` },
    },
    ...Object.entries(readerShared).map(([folder, allowed]) => ({
      name: `readers-${folder}-knows-no-store`,
      severity: 'error',
      comment: `readers/${folder}/ serves every store: of readers/ it may import only ${[folder, ...allowed].map((f) => `${f}/`).join(', ')} (no store folder, not the registry).`,
      from: { path: `^src/readers/${folder}/` },
      to: { path: '^src/readers/', pathNot: `^src/readers/(${[folder, ...allowed].join('|')})/` },
    })),
    {
      name: 'readers-flat-file',
      severity: 'error',
      comment: 'Only registry.ts lies directly in readers/: a reader goes in its store folder, readers/<store>/reader.ts.',
      from: { path: '^src/readers/[^/]+$', pathNot: '^src/readers/registry[.]ts$' },
      to: {},
    },
    {
      name: 'readers-flat-file-alone',
      severity: 'error',
      comment: 'Only registry.ts lies directly in readers/: a reader goes in its store folder, readers/<store>/reader.ts.',
      from: { path: '^src/readers/[^/]+$', pathNot: '^src/readers/registry[.]ts$', orphan: true },
      to: {},
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
