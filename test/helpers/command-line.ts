/**
 * A clinetrail command line run in this process with its output captured: `run` is cli/commands.ts
 * runCommandLine, of the sources or of a built copy (dist/, or an edited copy of it).
 */
import type { runCommandLine } from '../../src/cli/commands.js';

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function captureCommandLine(run: typeof runCommandLine, args: readonly string[]): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => (stderr += text),
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}
