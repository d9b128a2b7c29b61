/**
 * The `tasks-db` store (readers/tasks-db/reader.ts) on its committed fixture (records planted with the real DDL:
 * test/helpers/side-store-dbs.ts, agenda-rows.ts), on databases built here, and on the real 3.0.65 home,
 * whose tasks.db holds the default automation policy only.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readTasksDb } from '../../../src/readers/tasks-db/reader.js';
import { LEAD_SESSION, TASKS } from '../../helpers/agenda-rows.js';
import { brief, imageWith, readDiscovered, readRealHome, REAL_3X_IMAGE, removeImages } from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DB = 'home/u/.cline/data/db/tasks.db';

describe('discovery', () => {
  it('files db/tasks.db and its side files as tasks-db, and tasks/<id>/ files elsewhere', () => {
    expect(storeOf('db/tasks.db', 'cline-data')).toBe('tasks-db');
    expect(storeOf('db/tasks.db-wal', 'cline-data')).toBe('tasks-db');
    expect(storeOf('tasks/1/task_metadata.json', 'cline-data')).toBe('cline-tasks');
  });
});

describe('readTasksDb on the committed fixture', () => {
  it('gives each agenda task with its workspace, model and creator, each run, and the automation policy', async () => {
    const img = fixture('tasks-db', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('tasks-db', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([DB]);
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'agenda_task',
        at: '2026-12-01T17:04:30.000Z',
        sid: LEAD_SESSION,
        text:
          'agenda task: atask_1 type=follow-up status=approved scope=workspace priority=1 mode=yolo automation_eligible=true' +
          ` revision=2 approved_revision=2 created_by=agent:lead@${LEAD_SESSION} updated_by=user:u assignee=-` +
          ` origin_session=${LEAD_SESSION} origin_task=- last_session=1796144700000_run01 last_run=arun_1 workspace_root=/home/u/proj` +
          ' cwd=/home/u/proj resources=/home/u/proj/scripts/rotate.sh spec_path=- available=2026-12-01T17:05:00.000Z' +
          ' expires=2026-12-08T17:05:00.000Z completed=- archived=- title=Rotate the deploy key instructions=Run scripts/rotate.sh and push' +
          ' description=found during review system_prompt=- error=-',
      },
      {
        line: 2,
        seq: 0,
        kind: 'agenda_task',
        at: '2026-12-01T17:07:00.000Z',
        sid: null,
        text:
          'agenda task: atask_2 type=idea status=pending_approval scope=global priority=3 mode=- automation_eligible=true revision=1' +
          ' approved_revision=- created_by=user:u updated_by=user:u assignee=- origin_session=- origin_task=- last_session=- last_run=-' +
          ' workspace_root=- cwd=- resources=- spec_path=- available=2026-12-01T17:07:00.000Z expires=2026-12-08T17:07:00.000Z' +
          ' completed=- archived=- title=Try the new model instructions=compare outputs description=- system_prompt=- error=-',
      },
      {
        line: 2,
        seq: 1,
        kind: 'parser',
        at: '2026-12-01T17:07:00.000Z',
        sid: null,
        text: `parser: ${DB} line 2: agenda_tasks: model_selection_json is not valid JSON: Unexpected token 'o', "not json" is not valid JSON`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'agenda_task_run',
        at: '2026-12-01T17:05:01.000Z',
        sid: '1796144700000_run01',
        text:
          'agenda task run: arun_1 task=atask_1 revision=2 attempt=1 status=failed client=cli-20541 session=1796144700000_run01' +
          ' claimed=2026-12-01T17:05:00.000Z started=2026-12-01T17:05:01.000Z completed=2026-12-01T17:05:30.000Z result=- error=permission denied',
      },
      {
        line: 1,
        seq: 0,
        kind: 'agenda_automation',
        at: '2026-12-01T17:04:00.000Z',
        sid: null,
        text:
          'agenda automation: scope=global mode=unattended apply_to_agent_created=true max_concurrent_runs=2 max_chain_depth=1' +
          ' max_starts_per_hour=20 enabled_by=user:u enabled=2026-12-01T17:04:00.000Z updated=2026-12-01T17:04:00.000Z',
      },
    ]);
    expect(rows[0]).toMatchObject({
      project_path: '/home/u/proj',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      is_error: null,
    });
    expect(rows[3]).toMatchObject({ project_path: null, is_error: true });
  });

  it('matches its generator (TASKS with the real DDL)', async () => {
    const img = imageWith('tasks-db', 'tasks.db', TASKS);
    const fresh = await readDiscovered('tasks-db', img.imageRoot);
    const committed = await readDiscovered('tasks-db', fixture('tasks-db', 'img'));
    expect(fresh.rows.map(brief)).toEqual(committed.rows.map(brief));
  });
});

describe('readTasksDb on databases built here', () => {
  it('reads an older agenda_tasks without the columns added later (they read as absent)', async () => {
    const img = imageWith(
      'tasks-db',
      'tasks.db',
      { agenda_tasks: [{ task_id: 't1', title: 'old', instructions: 'do it', created_at: '2026-12-01T18:00:00.000Z' }] },
      {
        ddl: [
          'CREATE TABLE agenda_tasks (task_id TEXT PRIMARY KEY, title TEXT, instructions TEXT, created_at TEXT) WITHOUT ROWID',
        ],
      },
    );
    const rows = await collect(readTasksDb, makeSource({ store: 'tasks-db', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'agenda_task',
        at: '2026-12-01T18:00:00.000Z',
        sid: null,
        text:
          'agenda task: t1 type=- status=- scope=- priority=- mode=- automation_eligible=- revision=- approved_revision=-' +
          ' created_by=- updated_by=- assignee=- origin_session=- origin_task=- last_session=- last_run=- workspace_root=- cwd=-' +
          ' resources=- spec_path=- available=- expires=- completed=- archived=- title=old instructions=do it description=-' +
          ' system_prompt=- error=-',
      },
    ]);
    expect(path.basename(rows[0].source_file)).toBe('tasks.db');
  });
});

describe('readTasksDb on the real 3.0.65 home', () => {
  it('reads the one record tasks.db holds, the default manual policy, without changing a byte of the home', async () => {
    const { rows, files } = await readRealHome('tasks-db', REAL_3X_IMAGE);
    expect(files).toEqual(['home/.cline/data/db/tasks.db']);
    // the time the CLI stamped on the policy, read from a copy of the db (each corpus run stamps its own)
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-tasksdb-')), 'tasks.db');
    fs.copyFileSync(path.join(REAL_3X_IMAGE, 'home/.cline/data/db/tasks.db'), copy);
    const db = new Database(copy, { readonly: true });
    const [{ updated_at }] = db.prepare('select updated_at from agenda_task_automation').all() as { updated_at: number }[];
    db.close();
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    const updated = new Date(updated_at).toISOString();
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'agenda_automation',
        at: updated,
        sid: null,
        text:
          'agenda automation: scope=global mode=manual apply_to_agent_created=true max_concurrent_runs=2 max_chain_depth=1' +
          ` max_starts_per_hour=20 enabled_by=- enabled=- updated=${updated}`,
      },
    ]);
    expect([rows[0].setting_name, rows[0].setting_value]).toEqual(['mode', 'manual']);
  });
});
