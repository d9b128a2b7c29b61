/**
 * The examples of `--help` in a block of their own: each description on a line and its command under it,
 * indented. yargs' own examples are two columns, and a command longer than its column wrapped into the
 * column of its description; as text, yargs wraps each line at spaces to the help's width
 * (cli/commands.ts) and a wrapped command keeps its indent.
 */
/** A command line (`$0` is clinetrail) and what it does. */
export type Example = readonly [command: string, description: string];

/** The block of `examples`, a yargs epilogue before the command's notes (yargs writes `$0` as the script name). */
export function examplesBlock(examples: readonly Example[]): string {
  return ['Examples:', ...examples.flatMap(([command, description]) => [`  ${description}:`, `    ${command}`]), ''].join('\n');
}
