/**
 * Issue 31 leftover: Roo Code's and Kilo Code's custom modes. A custom mode says what the agent may do while in
 * it: a mode that grants `command`, or `edit` with no fileRegex, lets the agent run commands or write any file, and
 * its instructions are what the model is told. Before, `settings/custom_modes.yaml` was only listed in `files`
 * (store `unread`), the JSON file an older version left beside it likewise, and the state database's
 * `customModes` was one setting whose value was a JSON array: no query of `settings` could say which mode ran
 * commands. Now each group of each mode is a setting of scope `mode` with its agent and file, and a file that
 * does not parse is a `parser:` row of its own.
 *
 * One host: the Roo Code and Kilo Code fixture folders (their custom modes files from
 * test/helpers/custom-modes-fixtures.ts), Roo Code's state database in Cursor (its merged customModes, with a
 * workspace's `.roomodes` mode), and a Roo Code folder in Windsurf whose custom_modes.yaml is broken.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROO_JSON_MODES, ROO_MODES, ROO_SETTINGS } from '../helpers/custom-modes-fixtures.js';
import { fixture } from '../helpers/source.js';
import { ROO_STATE } from '../helpers/vscode-state-fixtures.js';
import { assertBuilt, describeRun, load, query, type CliRun, workDir } from './harness.js';

const work = workDir('custom-modes');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const host = path.join(fleet, 'dev-mac');
const BROKEN =
  'Users/carol/Library/Application Support/Windsurf/User/globalStorage/rooveterinaryinc.roo-cline/settings/custom_modes.yaml';
const STATE_DB = 'Users/carol/Library/Application Support/Cursor/User/globalStorage/state.vscdb';

type Mode = { slug: string; groups: ReadonlyArray<string | readonly [string, { fileRegex?: string }]> };

/** The slugs of `modes` whose groups hold `group`, with the fileRegex or `*` it is granted with. */
function granting(modes: readonly Mode[], group: string): Array<[string, string]> {
  return modes.flatMap((m) =>
    m.groups.flatMap((g): Array<[string, string]> => {
      if (typeof g === 'string') return g === group ? [[m.slug, '*']] : [];
      return g[0] === group ? [[m.slug, g[1].fileRegex ?? '*']] : [];
    }),
  );
}

let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet);
  for (const name of ['roo-tasks', 'kilo-tasks', 'vscode-state']) cpSync(fixture(name, 'img'), host, { recursive: true });
  mkdirSync(path.dirname(path.join(host, BROKEN)), { recursive: true });
  // a tab where YAML takes spaces: the extension itself reads no mode of it
  writeFileSync(path.join(host, BROKEN), 'customModes:\n\t- slug: hidden\n    groups: [command]\n');
  run = await load(fleet, out);
}, 300_000);

describe('custom modes as settings', () => {
  it('loads the host', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('names every mode that may run commands, with its agent and file, from the files and the state database', async () => {
    const rows = await query(
      out,
      `select agent, source_file, setting_name, setting_value from settings
       where host = 'dev-mac' and scope = 'mode' and regexp_matches(setting_name, '^customModes\\..+\\.groups\\.command$')
       order by all`,
    );
    const expected = [
      ...granting(ROO_JSON_MODES, 'command').map(([slug, v]) => ['roo-code', `${ROO_SETTINGS}/custom_modes.json`, slug, v]),
      ...granting(ROO_MODES as Mode[], 'command').map(([slug, v]) => ['roo-code', `${ROO_SETTINGS}/custom_modes.yaml`, slug, v]),
      ...granting(ROO_STATE.customModes as Mode[], 'command').map(([slug, v]) => ['roo-code', STATE_DB, slug, v]),
    ].map(([agent, file, slug, v]) => [agent, file, `customModes.${slug}.groups.command`, v]);
    expect(expected.length).toBeGreaterThan(3);
    expect([...rows].sort()).toEqual(expected.sort());
  });

  it('tells an edit restricted by fileRegex from an edit of every file', async () => {
    const rows = await query(
      out,
      `select agent, setting_name, setting_value from settings
       where host = 'dev-mac' and scope = 'mode' and setting_name like 'customModes.%.groups.edit' order by all`,
    );
    const yaml = granting(ROO_MODES as Mode[], 'edit');
    expect(yaml).toContainEqual(['docs-writer', '\\.md$']);
    expect(yaml).toContainEqual(['release-bot', '*']);
    for (const [slug, value] of yaml) expect(rows).toContainEqual(['roo-code', `customModes.${slug}.groups.edit`, value]);
    expect(rows).toContainEqual(['kilo-code', 'customModes.scraper.groups.edit', '^data/.*\\.json$']);
  });

  it("keeps a mode's instructions and a workspace mode's source as settings of the mode", async () => {
    const [, , bot] = ROO_MODES;
    expect(
      await query(
        out,
        `select setting_value from settings where host = 'dev-mac' and setting_name = 'customModes.release-bot.customInstructions'`,
      ),
    ).toEqual([[bot.customInstructions]]);
    const project = ROO_STATE.customModes.filter((m) => m.source === 'project').map((m) => [`customModes.${m.slug}.source`]);
    expect(
      await query(
        out,
        `select setting_name from settings where host = 'dev-mac' and source_file = '${STATE_DB}' and setting_value = 'project'`,
      ),
    ).toEqual(project);
  });

  it('gives a custom modes file that does not parse a parser row and a files entry, and reads the others', async () => {
    expect(
      await query(
        out,
        `select store, agents, count_errors::INTEGER from files where host = 'dev-mac' and source_file = '${BROKEN}'`,
      ),
    ).toEqual([['settings', ['roo-code'], 1]]);
    const parser = await query(out, `select text from events where host = 'dev-mac' and source_file = '${BROKEN}'`);
    expect(parser).toEqual([[expect.stringMatching(/^parser: .*custom_modes\.yaml: not YAML/)]]);
  });
});
