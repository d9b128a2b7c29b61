#!/usr/bin/env node
/**
 * The clinetrail process: runs the command line of cli/commands.ts on this process's arguments, stdout
 * and stderr, and exits with its code (documented there and in `--help`).
 */
import { once } from 'node:events';
import { hideBin } from 'yargs/helpers';
import { EXIT, runCommandLine } from './commands.js';

// A consumer that stops reading (`clinetrail query ... | head`) ends the output, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  process.stderr.write(`clinetrail: ${err.message}\n`);
  process.exit(EXIT.failed);
});

const code = await runCommandLine(hideBin(process.argv), {
  // a query's result is written chunk by chunk: the next chunk waits while the pipe is full
  stdout: async (text) => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  },
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
});
// a failure ends at once, as before: nothing of a failed load or query is left to finish
if (code !== EXIT.ok) process.exit(code);
