/**
 * `--help` (issue 28): wrapped at word boundaries to the terminal's width (80 when stdout is no terminal, at
 * most 120), the top description one paragraph, and each command's examples in a block of their own: a
 * description line, then its command indented under it, never a command wrapped into a column beside its
 * description. Every example runs `clinetrail`. The command line runs in this process, on the sources.
 */
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';

const COMMANDS = ['load', 'models', 'query', 'export', 'hunt', 'report', 'mcp'];

async function help(args: string[], columns?: number): Promise<string> {
  let stdout = '';
  const code = await runCommandLine([...args, '--help'], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      throw new Error(`stderr: ${text}`);
    },
    stderrIsTTY: false,
    columns,
  });
  expect(code).toBe(0);
  return stdout;
}

/** The paragraphs of a help text's prose (lines without a column layout), each as its lines. */
function paragraphs(text: string): string[][] {
  return text.split(/\n\s*\n/).map((p) => p.split('\n').filter((l) => l !== ''));
}

/**
 * Whether `lines` are one paragraph wrapped greedily at `width`: no line longer than the width, and each
 * line but the last ends only where its next word would not have fit.
 */
function greedy(lines: readonly string[], width: number): boolean {
  return lines.every((line, i) => {
    if (line.length > width) return false;
    const next = lines[i + 1]?.trimStart().split(' ')[0];
    return next === undefined || line.length + 1 + next.length > width;
  });
}

describe('clinetrail --help', () => {
  for (const columns of [undefined, 60, 100, 200]) {
    const width = Math.min(columns ?? 80, 120);
    it(`wraps at word boundaries to ${width} columns (a terminal of ${columns ?? 'none'})`, async () => {
      const text = await help([], columns);
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(width);
      const [usage, description] = paragraphs(text);
      expect(usage).toEqual(['clinetrail <command> [options]']);
      // the top description is one sentence, wrapped where the width says, not where a line break was typed
      expect(description.join(' ')).toBe(
        'Loads the records Cline (the AI coding agent) leaves in home directories, from a fleet of collected host images, into Parquet and a DuckDB warehouse for SQL hunting.',
      );
      expect(greedy(description, width), description.join('\n')).toBe(true);
      const exitCodes = paragraphs(text).find((p) => p[0].startsWith('Exit codes:'));
      expect(exitCodes).toBeDefined();
      expect(greedy(exitCodes ?? [], width), exitCodes?.join('\n')).toBe(true);
    });
  }
});

describe('the examples of each command', () => {
  for (const command of ['', ...COMMANDS]) {
    it(`${command || 'clinetrail'}: a block of descriptions, each with its clinetrail command under it`, async () => {
      const width = 70;
      const text = await help(command === '' ? [] : [command], width);
      const block = paragraphs(text).find((p) => p[0] === 'Examples:');
      expect(block, text).toBeDefined();
      // a description is lines indented by 2 up to the one ending in ':', its command the lines indented by 4
      const examples: { description: string[]; command: string[] }[] = [];
      for (const line of (block ?? []).slice(1)) {
        const last = examples[examples.length - 1];
        if (/^ {2}\S/.test(line)) {
          if (last === undefined || last.command.length > 0) examples.push({ description: [line], command: [] });
          else last.description.push(line);
        } else {
          expect(line, 'a command line is indented by 4').toMatch(/^ {4}\S/);
          last.command.push(line.trim());
        }
      }
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        const description = example.description.map((l) => l.trim()).join(' ');
        expect(description).toMatch(/^[A-Z].*\S:$/);
        expect(greedy(example.description, width), example.description.join('\n')).toBe(true);
        const line = example.command.join(' ');
        // every example runs clinetrail (parallel runs it too), the command of `make install`
        expect(line).toMatch(/^(parallel )?clinetrail /);
        if (command !== '' && !line.startsWith('parallel')) expect(line.startsWith(`clinetrail ${command} `)).toBe(true);
        // a long command wraps at spaces under its own indent, to the width
        expect(
          greedy(
            example.command.map((l) => `    ${l}`),
            width,
          ),
          example.command.join('\n'),
        ).toBe(true);
      }
    });
  }
});
