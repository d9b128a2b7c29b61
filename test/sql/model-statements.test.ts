/**
 * How the assembly of fleet.duckdb reads the model files (warehouse/model-statements.ts): every
 * statement of `sql/` that creates a table, a temp table too, is classified as one, so that a table a
 * model file drops is the host build's alone and the assembly never computes it over the whole fleet
 * (issue 26: sql/23's `create temp table hub_search_rows` ran there as written, a window over every
 * secondary row of the fleet, the one step of the assembly that grew with the hosts).
 */
import { describe, expect, it } from 'vitest';
import { allModelStatements, placeholders } from '../../src/warehouse/model-run.js';
import { buildOnlyTables } from '../../src/warehouse/host-models.js';
import { classify } from '../../src/warehouse/model-statements.js';
import { assembly } from '../../src/warehouse/build.js';
import { BINDING_FILES_STATEMENT, FILES_STATEMENT } from '../../src/warehouse/file-lists.js';

const vars = placeholders('/nonexistent-out', { parquet: [], inventory: [], secrets: [] }, false);

/** A statement's text without its line comments, on one line. */
const bare = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('model statements', () => {
  it('classifies every create ... table of the model files, temp tables too', async () => {
    const creates = (await allModelStatements(vars)).filter((s) =>
      /^create (or replace )?(temp |temporary )?table /i.test(bare(s.sql)),
    );
    expect(
      creates.some((s) => /^create temp table /i.test(bare(s.sql))),
      'the model files hold a temp table',
    ).toBe(true);
    for (const s of creates)
      expect({ sql: bare(s.sql).slice(0, 60), kind: s.kind }).toEqual({ sql: bare(s.sql).slice(0, 60), kind: 'create-table' });
  });

  it('counts the temp table sql/23 drops among the tables only the host build makes', async () => {
    expect(await buildOnlyTables(vars)).toContain('hub_search_rows');
  });

  it('reads a temp table name and leaves other statements alone', () => {
    expect(classify('create temporary table if not exists "T1" as select 1')).toMatchObject({
      kind: 'create-table',
      target: 't1',
    });
    expect(classify('create or replace macro m(x) as x')).toMatchObject({ kind: 'other', target: null });
  });

  it('assembles with every file any statement that may read rows, and binds views on first files', async () => {
    // the assembly binds its views with the first file of each list (warehouse/build.ts): a statement that
    // computes rows there must see every file of the fleet
    const schema = { sessions: [['host', 'VARCHAR']] as Array<[string, string]> };
    const rewrite = assembly('/out', schema, [], new Set(['hub_search_rows']), new Map());
    const withEveryFile = (sql: string) => `${FILES_STATEMENT};\n${sql};\n${BINDING_FILES_STATEMENT}`;
    const fleetTable = 'create or replace table probe as select count(*) as n from raw_events';
    expect(rewrite(classify(fleetTable))).toBe(withEveryFile(fleetTable));
    expect(rewrite(classify('insert into probe select count(*) from raw_files'))).toBe(
      withEveryFile('insert into probe select count(*) from raw_files'),
    );
    expect(rewrite(classify('update probe set n = (select count(*) from raw_events)'))).toBe(
      withEveryFile('update probe set n = (select count(*) from raw_events)'),
    );
    for (const bound of [
      'create or replace view v as select * from raw_events',
      '-- a view\ncreate view w as select 1',
      'create or replace macro m(x) as x',
      "comment on table probe is 'rows'",
    ])
      expect(rewrite(classify(bound))).toBe(bound);
    // a per-host table becomes a view over its hosts' files, bound like the others
    expect(rewrite(classify('create or replace table sessions as select host from raw_events'))).toMatch(
      /^create or replace view "sessions" as /,
    );
    // a table of constants reads no file, whatever its strings say; a FROM or JOIN of a relation or a
    // function does
    const constants = "create or replace table c as select * from (select * from (values (1, 'read from raw_events')))";
    expect(rewrite(classify(constants))).toBe(constants);
    const joined = 'create or replace table j as select * from (values (1)) as v(n) join raw_events on true';
    expect(rewrite(classify(joined))).toBe(withEveryFile(joined));
    const fn = "create or replace table f as select * from read_parquet('/out/x.parquet')";
    expect(rewrite(classify(fn))).toBe(withEveryFile(fn));
    const dashes = "create or replace table d as select '--' as s, * from raw_events";
    expect(rewrite(classify(dashes))).toBe(withEveryFile(dashes));
    const unspaced = 'create or replace table u as select * from"raw_events"';
    expect(rewrite(classify(unspaced))).toBe(withEveryFile(unspaced));
    const fromJson = `create or replace table fj as select from_json('{"a": 1}', '{"a": "INTEGER"}') as j`;
    expect(rewrite(classify(fromJson))).toBe(fromJson);
    const blockComment = '/* the hosts */ create or replace table b as select 1 as n';
    expect(classify(blockComment).kind).toBe('create-table');
    // the rows the model files compute in the assembly: only the two tables of constants go without every
    // file; a new one here must read no relation, or the assembly would compute it from first files only
    const built = assembly('/out', schema, [], await buildOnlyTables(vars), new Map());
    // (a table created by its columns alone, as int_duplicate_pairs is here, computes no rows)
    const rows = (await allModelStatements(vars)).filter((s) => {
      const sql = built(s)
        ?.replace(/--[^\n]*/g, '')
        .trim();
      if (
        sql === undefined ||
        /^create or replace view /.test(sql) ||
        /^create\s+(?:or\s+replace\s+)?table\s+\S+\s*\(/i.test(sql)
      )
        return false;
      return s.kind === 'create-table' || s.kind === 'insert';
    });
    expect(rows.filter((s) => !built(s)?.startsWith(FILES_STATEMENT)).map((s) => s.target)).toEqual([
      'stores',
      'int_duplicate_rules',
    ]);
    // without lists (a hunt's batch of hosts in memory: warehouse/host-batch-query.ts) the views name
    // their files in literals, and there is no table of lists to set the variable from
    const literal = assembly('/out', schema, [], new Set(['hub_search_rows']));
    expect(literal(classify(fleetTable))).toBe(fleetTable);
  });
});
