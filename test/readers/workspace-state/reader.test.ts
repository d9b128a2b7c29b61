/**
 * The `workspace-state` store (readers/workspace-state/reader.ts) on its committed fixture (the 1.x file as the
 * released CLI wrote it, and a 2.x file with toggles), on broken copies, and on the real 1.0.10 and
 * 2.18.0 homes, whose files hold empty toggle maps only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readWorkspaceState, workspaceHash } from '../../../src/readers/workspace-state/reader.js';
import {
  brief,
  imageWithFile,
  readDiscovered,
  readRealHome,
  REAL_1X_IMAGE,
  removeImages,
} from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DATA = 'home/u/.cline/data';
const FROM_2X = '(from .cline/data/workspaces/700ed458/workspaceState.json, file mtime)';
const EMPTY_KEYS =
  'keys=workflowToggles(0),localClineRulesToggles(0),localWindsurfRulesToggles(0),localCursorRulesToggles(0),localAgentsRulesToggles(0)';

const mtimeOf = (file: string) => new Date(Math.trunc(fs.statSync(file).mtimeMs)).toISOString();

describe('workspaceHash', () => {
  it("is Cline's hashString: the 2.18.0 driver's workspace is the folder name its CLI wrote", () => {
    expect(workspaceHash('/tmp/clinetrail-real-corpus/cline-2.18.0/work/demo-project')).toBe('3cb4e168');
    expect(workspaceHash('/home/u/proj')).toBe('700ed458');
  });
});

describe('discovery', () => {
  it('files workspace/workspaceState.json and workspaces/<hash>/workspaceState.json as workspace-state', () => {
    expect(storeOf('workspace/workspaceState.json', 'cline-data')).toBe('workspace-state');
    expect(storeOf('workspaces/3cb4e168/workspaceState.json', 'cline-data')).toBe('workspace-state');
    expect(storeOf('workspaces/3cb4e168/other.json', 'cline-data')).toBe('unread');
  });
});

describe('readWorkspaceState on the committed fixture', () => {
  it('gives a row per file, a rule_toggle row per toggled file, and the workspace path its hash names', async () => {
    const img = fixture('workspace-state', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('workspace-state', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([`${DATA}/workspace/workspaceState.json`, `${DATA}/workspaces/700ed458/workspaceState.json`]);
    const at1 = mtimeOf(path.join(img, DATA, 'workspace', 'workspaceState.json'));
    const at2 = mtimeOf(path.join(img, DATA, 'workspaces', '700ed458', 'workspaceState.json'));
    expect(rows.map(brief)).toEqual([
      {
        line: null,
        seq: 0,
        kind: 'workspace_state',
        at: at1,
        sid: null,
        text: `workspace state: workspace=- path=- ${EMPTY_KEYS} (from .cline/data/workspace/workspaceState.json, file mtime)`,
      },
      {
        line: null,
        seq: 0,
        kind: 'workspace_state',
        at: at2,
        sid: null,
        text:
          'workspace state: workspace=700ed458 path=/home/u/proj keys=workflowToggles(1),localClineRulesToggles(2),' +
          `localWindsurfRulesToggles(0),localCursorRulesToggles(0),localAgentsRulesToggles(1),checkpointsMigrated ${FROM_2X}`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'rule_toggle',
        at: at2,
        sid: null,
        text: `rule toggle: workflowToggles /home/u/proj/.clinerules/workflows/release.md=true ${FROM_2X}`,
      },
      {
        line: 2,
        seq: 0,
        kind: 'rule_toggle',
        at: at2,
        sid: null,
        text: `rule toggle: localClineRulesToggles /home/u/proj/.clinerules/deploy.md=true ${FROM_2X}`,
      },
      {
        line: 2,
        seq: 1,
        kind: 'rule_toggle',
        at: at2,
        sid: null,
        text: `rule toggle: localClineRulesToggles /home/u/proj/.clinerules/old.md=false ${FROM_2X}`,
      },
      {
        line: 5,
        seq: 0,
        kind: 'rule_toggle',
        at: at2,
        sid: null,
        text: `rule toggle: localAgentsRulesToggles /home/u/proj/AGENTS.md=true ${FROM_2X}`,
      },
      {
        line: 6,
        seq: 0,
        kind: 'workspace_state_key',
        at: at2,
        sid: null,
        text: `workspace state key: checkpointsMigrated=true ${FROM_2X}`,
      },
    ]);
    expect(rows.map((r) => r.project_path)).toEqual([null, ...Array(6).fill('/home/u/proj')]);
  });
});

describe('readWorkspaceState on broken and unusual files', () => {
  const rowsOf = async (rel: string, bytes: string) => {
    const img = imageWithFile(rel, bytes);
    return collect(readWorkspaceState, makeSource({ store: 'workspace-state', imageRoot: img.imageRoot, root: img.dataRoot }));
  };

  it.each([
    ['{"workflowToggles": {', /^parser: .*workspaceState\.json: .*JSON/],
    ['[]', /^parser: .*workspaceState\.json: not a JSON object$/],
    ['', /^parser: .*workspaceState\.json: empty file$/],
  ])('%j is one parser row', async (bytes, text) => {
    const rows = await rowsOf('workspaces/abc/workspaceState.json', bytes);
    expect(rows.map((r) => r.kind)).toEqual(['parser']);
    expect(rows[0].text).toMatch(text);
  });

  it('finds no path when no toggled file lies under a folder of that hash, and reads Windows paths', async () => {
    const hash = workspaceHash('C:\\Users\\bob\\app');
    const rows = await rowsOf(
      `workspaces/${hash}/workspaceState.json`,
      JSON.stringify({
        localClineRulesToggles: { 'C:\\Users\\bob\\app\\.clinerules\\x.md': true },
        workflowToggles: { '/elsewhere/w.md': true },
      }),
    );
    expect(rows[0].text).toContain(`workspace=${hash} path=C:\\Users\\bob\\app keys=`);
    expect(rows.map((r) => r.project_path)).toEqual(['C:\\Users\\bob\\app', 'C:\\Users\\bob\\app', 'C:\\Users\\bob\\app']);
    const none = await rowsOf(
      'workspaces/ffffffff/workspaceState.json',
      JSON.stringify({ workflowToggles: { '/a/b.md': false } }),
    );
    expect(none.map((r) => r.project_path)).toEqual([null, null]);
  });
});

describe('readWorkspaceState on the real homes', () => {
  it('1.0.10: reads workspace/workspaceState.json, five empty toggle maps, no byte changed', async () => {
    const { rows, files } = await readRealHome('workspace-state', REAL_1X_IMAGE);
    expect(files).toEqual(['home/.cline/data/workspace/workspaceState.json']);
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      [
        'workspace_state',
        `workspace state: workspace=- path=- ${EMPTY_KEYS} (from .cline/data/workspace/workspaceState.json, file mtime)`,
      ],
    ]);
  });

  it('2.18.0: reads workspaces/3cb4e168/workspaceState.json, five empty toggle maps, no byte changed', async () => {
    const { rows, files } = await readRealHome('workspace-state', fixture('real-producer', 'cline-2.18.0'));
    expect(files).toEqual(['home/.cline/data/workspaces/3cb4e168/workspaceState.json']);
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      [
        'workspace_state',
        `workspace state: workspace=3cb4e168 path=- ${EMPTY_KEYS} (from .cline/data/workspaces/3cb4e168/workspaceState.json, file mtime)`,
      ],
    ]);
  });
});
