/**
 * The import rule of src/ (docs/ARCHITECTURE.md "Folders and the import rule"), checked by `make test`.
 * Data flows discover -> readers -> write -> warehouse; load/ and cli/ run the flow; core/ and evidence/
 * are foundations. A module may import its own folder, a foundation, or a stage downstream of it; never
 * a stage upstream, never an orchestrator from a stage, and no cycles.
 */
const stage = (name) => `^src/${name}/`;
const upstreamOf = {
  core: ['evidence', 'discover', 'readers', 'write', 'warehouse', 'load', 'cli'],
  evidence: ['discover', 'readers', 'write', 'warehouse', 'load', 'cli'],
  discover: ['load', 'cli'],
  readers: ['discover', 'load', 'cli'],
  write: ['readers', 'discover', 'load', 'cli'],
  warehouse: ['write', 'readers', 'discover', 'load', 'cli'],
  load: ['cli'],
  // issue 15: the fleet report reads the warehouse (and may use hunt/), never load, cli or mcp
  report: ['load', 'cli', 'mcp', 'write', 'readers', 'discover'],
  // issue 15: the hunt pack runs on the warehouse; the MCP server and the report may use it
  hunt: ['load', 'cli', 'mcp', 'report', 'write', 'readers', 'discover'],
};
// issue 15, mcp/: the MCP server reads the warehouse (and the hunt pack), never a load, the CLI or the
// report; no stage of the flow imports it
upstreamOf.mcp = ['load', 'cli', 'report'];
for (const name of ['core', 'evidence', 'discover', 'readers', 'write', 'warehouse', 'load']) upstreamOf[name].push('mcp');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties two modules into one: split the shared part out, downstream of both.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...Object.entries(upstreamOf).map(([from, upstream]) => ({
      name: `${from}-imports-downstream-only`,
      severity: 'error',
      comment: `src/${from}/ may not import ${upstream.map((s) => `src/${s}/`).join(', ')}: imports point downstream (docs/ARCHITECTURE.md).`,
      from: { path: stage(from) },
      to: { path: `^src/(${upstream.join('|')})/` },
    })),
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
