/**
 * docs/WAREHOUSE.md is written from the catalog's comments (bench/warehouse-reference.ts, issue 28): this test
 * builds the demo fleet's warehouse, renders the page from its catalog and fails when the committed page
 * differs (the drift the page exists to end), or when a table or column that no model file makes (the hunt
 * tables) has no comment. That every model of sql/, int_ ones too, and each of its columns has a comment is
 * the SQL lint's rule (tools/sql-lint/, `make lint`), which names the file and line without a load.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf, loadDemoFleet, REFERENCE_FILE, REFERENCE_TARGET, renderReference } from '../../bench/warehouse-reference.js';
import type { TableDoc } from '../../src/mcp/list-tables.js';
import { allModelStatements, placeholders } from '../../src/warehouse/model-run.js';
import { REPO } from '../helpers/source.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-reference-test-'));
let catalog: TableDoc[] = [];

beforeAll(async () => {
  const out = path.join(work, 'out');
  await loadDemoFleet(out);
  catalog = await catalogOf(out);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the warehouse reference', () => {
  it(`${REFERENCE_FILE} is what the catalog gives`, () => {
    const committed = fs.readFileSync(path.join(REPO, REFERENCE_FILE), 'utf8');
    expect(committed, `${REFERENCE_FILE} differs from the warehouse's catalog: run ${REFERENCE_TARGET} and commit it`).toBe(
      renderReference(catalog),
    );
  });

  it('every table and column it lists that no model file makes has a comment', async () => {
    const vars = placeholders(work, { parquet: [], inventory: [], secrets: [] }, false);
    const models = new Set((await allModelStatements(vars)).filter((s) => s.kind.startsWith('create-')).map((s) => s.target));
    const documented = catalog.filter((t) => !t.intermediate && !models.has(t.name));
    // the hunt tables (hunt/findings-table.ts) are there, so the check is not vacuous
    expect(documented.map((t) => t.name)).toEqual(expect.arrayContaining(['findings', 'hunt_runs']));
    const missing = documented.flatMap((t) => [
      ...(t.comment?.trim() ? [] : [t.name]),
      ...t.columns.filter((c) => !c.comment?.trim()).map((c) => `${t.name}.${c.name}`),
    ]);
    expect(missing, 'comment on these in src/hunt/findings-table.ts, then run make warehouse-reference').toEqual([]);
  });
});
