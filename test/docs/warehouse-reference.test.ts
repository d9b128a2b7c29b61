/**
 * docs/WAREHOUSE.md is written from the catalog's comments (bench/warehouse-reference.ts, issue 28): this test
 * builds the demo fleet's warehouse, renders the page from its catalog and fails when the committed page
 * differs, or when a table, view or column of it, or of the int_ models it leaves out, has no comment (the
 * drift the page exists to end).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf, loadDemoFleet, REFERENCE_FILE, REFERENCE_TARGET, renderReference } from '../../bench/warehouse-reference.js';
import type { TableDoc } from '../../src/mcp/list-tables.js';
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

  it('every table, view and column it lists has a comment', () => {
    const documented = catalog.filter((t) => !t.intermediate);
    // the models of the hunt timeline and the per-question views are there, so the check is not vacuous
    expect(documented.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'sessions', 'hosts', 'findings', 'stores']));
    const missing = documented.flatMap((t) => [
      ...(t.comment?.trim() ? [] : [t.name]),
      ...t.columns.filter((c) => !c.comment?.trim()).map((c) => `${t.name}.${c.name}`),
    ]);
    expect(missing, 'comment on these in sql/ (or core/records.ts), then run make warehouse-reference').toEqual([]);
  });

  it('every int_ table and view the page leaves out, and each of its columns, has a comment too', () => {
    const intermediate = catalog.filter((t) => t.intermediate);
    // the models of the duplicate rule and of the tool calls are among them, so the check is not vacuous
    expect(intermediate.map((t) => t.name)).toEqual(
      expect.arrayContaining(['int_primary_events', 'int_duplicate_rules', 'int_duplicate_pairs', 'int_tool_calls']),
    );
    const missing = intermediate.flatMap((t) => [
      ...(t.comment?.trim() ? [] : [t.name]),
      ...t.columns.filter((c) => !c.comment?.trim()).map((c) => `${t.name}.${c.name}`),
    ]);
    expect(missing, 'comment on these in sql/ (or core/records.ts)').toEqual([]);
  });
});
