/** A SQL string literal: the value in single quotes, each quote doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A quoted SQL name: the name in double quotes, each double quote doubled. */
export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
