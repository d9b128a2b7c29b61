/**
 * The documentation as a whole (issue 28): README.md is a short page with a table of contents, every link of
 * README.md and docs/*.md to a local file or heading resolves, and docs/CLI.md's synopsis names exactly the
 * options each command's `--help` lists (the command line runs in this process, on the sources).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { codeBlocks, docPages, prose } from '../helpers/doc-examples.js';
import { REPO } from '../helpers/source.js';

const read = (rel: string): string => fs.readFileSync(path.join(REPO, rel), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchor(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every link of a page's text outside code: [text](target) and images, web links left out. */
function localLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
}

async function helpOf(command: string): Promise<string> {
  let stdout = '';
  const code = await runCommandLine([command, '--help'], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    stderrIsTTY: false,
  });
  expect(code).toBe(0);
  return stdout;
}

describe('the documentation', () => {
  it('README.md is at most 300 lines, and its table of contents lists each of its sections', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const contents = readme.slice(readme.indexOf('## Contents'), readme.indexOf('\n## ', readme.indexOf('## Contents') + 1));
    const listed = [...contents.matchAll(/^- \[[^\]]+\]\(#([^)]+)\)/gm)].map((m) => m[1]);
    const sections = [...prose(readme).matchAll(/^## (.+)$/gm)].map((m) => anchor(m[1])).filter((a) => a !== 'contents');
    expect(sections.length).toBeGreaterThanOrEqual(8);
    expect(listed).toEqual(sections);
  });

  it('every link of README.md and docs/*.md to a local file or heading resolves', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of docPages()) {
      for (const target of localLinks(read(page))) {
        checked++;
        const [file, hash] = target.split('#', 2);
        const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        if (!fs.existsSync(path.join(REPO, resolved))) {
          broken.push(`${page}: ${target} (no ${resolved})`);
          continue;
        }
        if (hash !== undefined && !anchorsOf(read(resolved)).has(hash)) broken.push(`${page}: ${target} (no heading #${hash})`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it("docs/CLI.md's synopsis names exactly the options each command's --help lists", async () => {
    const cli = read('docs/CLI.md');
    const synopsis = codeBlocks(cli.slice(cli.indexOf('## Synopsis')))[0];
    for (const command of ['load', 'models', 'query', 'export', 'hunt', 'report', 'mcp']) {
      // a command's lines: its own, and the indented lines that continue it
      const lines = synopsis.split('\n');
      const mine = lines.flatMap((line, i) => {
        if (!line.startsWith(`clinetrail ${command} `)) return [];
        const rest = lines.slice(i + 1);
        const end = rest.findIndex((l) => !l.startsWith(' '));
        return [line, ...rest.slice(0, end < 0 ? rest.length : end)];
      });
      // the text in parentheses after a synopsis points to pages, not options
      const documented = new Set(
        mine.flatMap((l) => [...l.replace(/\s{2,}\(.*\)$/, '').matchAll(/--[a-z-]+/g)].map((m) => m[0].replace(/^--no-/, '--'))),
      );
      const help = await helpOf(command);
      const offered = new Set(
        [...help.matchAll(/^\s+(?:-[a-zA-Z], )?(--[a-z-]+)/gm)]
          .map((m) => m[1])
          .filter((o) => o !== '--help' && o !== '--version'),
      );
      expect([...documented].sort(), command).toEqual([...offered].sort());
    }
  });
});
