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
  readers: ['write', 'warehouse', 'evidence', 'core'],
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
      name: 'parse-is-bytes-only',
      severity: 'error',
      comment: 'readers/parse/ turns bytes into values: it knows no store, no Cline record and no row.',
      from: { path: '^src/readers/parse/' },
      to: { path: '^src/readers/', pathNot: '^src/readers/parse/' },
    },
    {
      name: 'shapes-know-no-store',
      severity: 'error',
      comment: 'readers/shapes/ maps Cline records to rows for any store: it may not import a store reader or the registry.',
      from: { path: '^src/readers/shapes/' },
      to: { path: '^src/readers/[^/]+$' },
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
