/**
 * Roo Code's and Kilo Code's custom modes files, read by the settings store (readers/settings/custom-modes.ts)
 * on the files test/helpers/custom-modes-fixtures.ts plants in fixtures/roo-tasks and fixtures/kilo-tasks,
 * and on broken files built here: one setting row per group with its fileRegex (`*` for the whole group), the
 * mode's name and prompts, the JSON file an older version left beside the YAML, the characters the extension
 * cleans before parsing, and one `parser:` row for a file that does not parse.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSettings } from '../../../src/readers/settings/reader.js';
import { KILO_MODES, KILO_SETTINGS, ROO_JSON_MODES, ROO_MODES, ROO_SETTINGS } from '../../helpers/custom-modes-fixtures.js';
import { collect, fixture, listFiles, makeSource } from '../../helpers/source.js';

const parent = (rel: string) => rel.split('/').slice(0, -1).join('/');

async function read(image: string, settings: string, home: string, agent: 'roo-code' | 'kilo-code'): Promise<Row[]> {
  const imageRoot = fixture(image, 'img');
  const root = path.join(imageRoot, ...parent(settings).split('/'));
  const files = listFiles(path.join(imageRoot, ...settings.split('/')));
  return collect(readSettings, makeSource({ store: 'settings', imageRoot, root, home, client: 'vscode', agent, files }));
}

const pairs = (rows: Row[]) => rows.filter((r) => r.kind === 'custom_mode').map((r) => [r.setting_name, r.setting_value]);

describe("Roo Code's custom_modes.yaml and the custom_modes.json an older version left", async () => {
  const rows = await read('roo-tasks', ROO_SETTINGS, 'Users/carol', 'roo-code');
  const yaml = rows.filter((r) => r.source_file === `${ROO_SETTINGS}/custom_modes.yaml`);
  const json = rows.filter((r) => r.source_file === `${ROO_SETTINGS}/custom_modes.json`);

  it('reads every file with no problem, each row its agent', () => {
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['roo-code']));
  });

  it("gives each mode's name, each group with its fileRegex or * for the whole group, and its other keys as written", () => {
    const [shipper, docs, bot] = ROO_MODES;
    expect(pairs(yaml)).toEqual([
      ['customModes.shipper.name', shipper.name],
      ['customModes.shipper.groups.read', '*'],
      ['customModes.shipper.groups.command', '*'],
      ['customModes.shipper.roleDefinition', shipper.roleDefinition],
      ['customModes.shipper.source', 'global'],
      ['customModes.docs-writer.name', docs.name],
      ['customModes.docs-writer.groups.read', '*'],
      ['customModes.docs-writer.groups.edit', '\\.md$'],
      ['customModes.docs-writer.groups.edit.description', 'Markdown files only'],
      ['customModes.docs-writer.roleDefinition', docs.roleDefinition],
      ['customModes.docs-writer.whenToUse', docs.whenToUse],
      ['customModes.docs-writer.description', docs.description],
      ['customModes.docs-writer.source', 'global'],
      ['customModes.release-bot.name', bot.name],
      ['customModes.release-bot.groups.read', '*'],
      ['customModes.release-bot.groups.edit', '*'],
      ['customModes.release-bot.groups.command', '*'],
      ['customModes.release-bot.groups.mcp', '*'],
      ['customModes.release-bot.roleDefinition', bot.roleDefinition],
      ['customModes.release-bot.customInstructions', bot.customInstructions],
      ['customModes.release-bot.source', 'global'],
    ]);
  });

  it("places each row at its mode and the file's mtime, with a text that says where it is from", () => {
    const mtime = Math.trunc(statSync(fixture('roo-tasks', 'img', ...`${ROO_SETTINGS}/custom_modes.yaml`.split('/'))).mtimeMs);
    expect(yaml.every((r) => r.timestamp_utc === mtime && r.timestamp_source === 'file_mtime' && r.turn_type === 'system')).toBe(
      true,
    );
    const bot = yaml.filter((r) => r.setting_name?.startsWith('customModes.release-bot.'));
    expect(bot.map((r) => [r.source_line, r.source_seq])).toEqual(bot.map((_, i) => [3, i]));
    expect(bot.find((r) => r.setting_name === 'customModes.release-bot.groups.command')?.text).toBe(
      'custom mode: customModes.release-bot.groups.command=* (from Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/custom_modes.yaml, file mtime)',
    );
  });

  it('reads the JSON file of before the move to YAML, with the mode since deleted from the YAML file', () => {
    const names = pairs(json).filter(([name]) => name?.endsWith('.name'));
    expect(names).toEqual(ROO_JSON_MODES.map((m) => [`customModes.${m.slug}.name`, m.name]));
    expect(pairs(json)).toContainEqual(['customModes.cleanup.groups.command', '*']);
  });
});

describe("Kilo Code's custom_modes.yaml", async () => {
  const rows = await read('kilo-tasks', KILO_SETTINGS, 'home/dave', 'kilo-code');
  const modes = rows.filter((r) => r.source_file === `${KILO_SETTINGS}/custom_modes.yaml`);

  it("reads its own keys and the browser group, and a restricted edit's fileRegex", () => {
    const [scraper] = KILO_MODES;
    expect(pairs(modes)).toEqual([
      ['customModes.scraper.name', scraper.name],
      ['customModes.scraper.groups.read', '*'],
      ['customModes.scraper.groups.browser', '*'],
      ['customModes.scraper.groups.edit', '^data/.*\\.json$'],
      ['customModes.scraper.iconName', scraper.iconName],
      ['customModes.scraper.roleDefinition', scraper.roleDefinition],
      ['customModes.scraper.source', 'global'],
    ]);
    expect(modes.every((r) => r.agent === 'kilo-code')).toBe(true);
  });
});

describe('custom modes files that do not read as the extension writes them', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-modes-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const ext = path.join(tmp, 'home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline');
  mkdirSync(path.join(ext, 'settings'), { recursive: true });

  async function rowsOf(name: string, text: string): Promise<Row[]> {
    const file = path.join(ext, 'settings', name);
    writeFileSync(file, text);
    const source = makeSource({ store: 'settings', imageRoot: tmp, root: ext, agent: 'roo-code', files: [file] });
    return collect(readSettings, source);
  }

  it('gives a file that is not YAML one parser row and no mode', async () => {
    const rows = await rowsOf('custom_modes.yaml', 'customModes:\n  - slug: a\n    slug: b\n    groups: [read\n');
    expect(rows.map((r) => r.kind)).toEqual(['parser']);
    expect(rows[0].text).toMatch(/^parser: home\/u\/.+\/custom_modes\.yaml: not YAML/);
    expect(rows[0].agent).toBe('roo-code');
  });

  it('cleans the characters the extension cleans: a non-breaking space indent and smart quotes read', async () => {
    const rows = await rowsOf(
      'custom_modes.yaml',
      'customModes:\n\u00a0 - slug: q\n    name: \u201cQuo\u200bted\u201d\n    groups: [command]\n',
    );
    expect(pairs(rows)).toEqual([
      ['customModes.q.name', 'Quoted'],
      ['customModes.q.groups.command', '*'],
    ]);
  });

  it('bounds alias expansion: a "billion laughs" file is one parser row', async () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      laughs.push(
        `${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(10)
          .fill(`*${'abcdefghij'[i - 1]}`)
          .join(', ')}]`,
      );
    const rows = await rowsOf('custom_modes.yaml', `${laughs.join('\n')}\ncustomModes: [*j]\n`);
    expect(rows.map((r) => r.kind)).toEqual(['parser']);
  });

  it('reads what it can of a bad mode and names the rest in parser rows', async () => {
    const rows = await rowsOf(
      'custom_modes.yaml',
      'customModes:\n  - just a string\n  - name: No Slug\n    groups: [read, {edit: true}]\n  - slug: empty\n    name: Empty\n    groups: []\n',
    );
    expect(
      rows.map((r) => [
        r.kind,
        r.source_line,
        r.kind === 'parser' ? r.text?.replace(/^.*custom_modes\.yaml line \d+: /, '') : r.setting_name,
      ]),
    ).toEqual([
      ['parser', 1, 'customModes[0] is not an object: just a string'],
      ['parser', 2, 'customModes[1] has no slug: its settings are named #2'],
      ['custom_mode', 2, 'customModes.#2.name'],
      ['custom_mode', 2, 'customModes.#2.groups.read'],
      ['parser', 2, 'customModes.#2.groups[1] is neither a group name nor [group, options]: {"edit":true}'],
      ['custom_mode', 3, 'customModes.empty.name'],
      ['custom_mode', 3, 'customModes.empty.groups'],
    ]);
    expect(rows.find((r) => r.setting_name === 'customModes.empty.groups')?.setting_value).toBe('[]');
  });

  it('gives no row for the empty file the extension creates, and a parser row for a document with no customModes', async () => {
    expect(await rowsOf('custom_modes.yaml', 'customModes: []\n')).toEqual([]);
    expect(await rowsOf('custom_modes.yaml', '')).toEqual([]);
    const other = await rowsOf('cline_custom_modes.json', '{"modes": []}');
    expect(other.map((r) => r.text?.endsWith('no customModes list'))).toEqual([true]);
    const broken = await rowsOf('cline_custom_modes.json', '{"customModes": [');
    expect(broken.map((r) => r.kind)).toEqual(['parser']);
  });
});
