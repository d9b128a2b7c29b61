/**
 * `export --where EXPR` is one condition on the events view, never more SQL: the export wraps it as
 * `select * from events where (EXPR)` (warehouse/export.ts selectionSql), so a text such as
 * `1=1) union all (select * from events` or `true) order by (1` would otherwise change the query around
 * it. The wrapped text is parsed by DuckDB (`json_serialize_sql`, which parses without binding, so no
 * table is needed) and must give exactly the tree of `select * from events where (true)` apart from its
 * where clause: one SELECT of `*` from `events`, no set operation, modifier, grouping, parameter or
 * second statement. A text that does not parse (an unclosed comment or quote, a `;`, a `)` too many) is
 * refused with DuckDB's message. Whether the condition binds (its columns exist) is the query's
 * business: an unknown column fails the export like any SQL error.
 */
import { openDuckDB } from './duckdb-open.js';
import { selectionSql } from './export.js';

/** The answer of json_serialize_sql. */
interface Serialized {
  error: boolean;
  error_message?: string;
  statements?: unknown[];
}

/** The statements of a parse, without the where clause of the outermost SELECT and without text positions. */
function shape(parsed: Serialized): string {
  return JSON.stringify(parsed.statements, (key, value) => {
    if (key === 'query_location') return undefined;
    if (key === 'where_clause') return 'WHERE';
    return value;
  });
}

/** Why `where` is not one condition of the events view's selection, or null when it is. */
export async function whereProblem(where: string): Promise<string | null> {
  const { instance, conn } = await openDuckDB(':memory:', {});
  try {
    const serialize = async (text: string): Promise<Serialized> => {
      const check = await conn.prepare('select json_serialize_sql($1::varchar)');
      try {
        check.bindVarchar(1, text);
        return JSON.parse(String((await check.runAndReadAll()).getRowsJson()[0][0])) as Serialized;
      } finally {
        check.destroySync();
      }
    };
    const parsed = await serialize(selectionSql(where, undefined));
    if (parsed.error) return `it does not parse: ${parsed.error_message?.split('\n')[0] ?? 'a syntax error'}`;
    const expected = await serialize(selectionSql('true', undefined));
    if (shape(parsed) !== shape(expected))
      return 'it is more than one expression (a `)` that closes the condition and SQL after it, or a parameter, changes the query around it)';
    return null;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
