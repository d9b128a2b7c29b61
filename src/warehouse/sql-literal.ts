/** A SQL string literal: the value in single quotes, each quote doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
