/**
 * The `teams-db` store (readers/teams-db/reader.ts) on its committed fixture (records planted with the real DDL:
 * test/helpers/side-store-dbs.ts), on databases built here, and on the real 3.0.65 home, whose teams.db
 * holds its schema version row only (in the -wal).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readTeamsDb } from '../../../src/readers/teams-db/reader.js';
import { DEMO_ROWS, LEAD_SESSION } from '../../helpers/side-store-rows.js';
import { brief, imageWith, readDiscovered, readRealHome, REAL_3X_IMAGE, removeImages } from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DB = 'home/u/.cline/data/db/teams.db';
const T = LEAD_SESSION;

describe('discovery', () => {
  it('files db/teams.db and its side files as teams-db', () => {
    for (const rel of ['db/teams.db', 'db/teams.db-wal', 'db/teams.db-shm']) expect(storeOf(rel, 'cline-data')).toBe('teams-db');
    expect(storeOf('teams/teams.db', 'cline-data')).toBe('unread');
  });
});

describe('readTeamsDb on the committed fixture', () => {
  it('gives the event history, the team and its teammates, tasks, runs, outcomes and fragments at their own times', async () => {
    const img = fixture('teams-db', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('teams-db', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([DB]);
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'team_event',
        at: '2026-12-01T17:02:00.000Z',
        sid: T,
        text:
          `team event: ${T} teammate_spawned agent=researcher role=teammate model=claude-sonnet-4-5 max_iterations=20` +
          ' role_prompt=You research the codebase. correlation=-',
      },
      {
        line: 2,
        seq: 0,
        kind: 'team_event',
        at: '2026-12-01T17:02:05.000Z',
        sid: T,
        text:
          `team event: ${T} team_message from=lead to=researcher task=- subject=scope` +
          ' body=List every file that reads ~/.aws/credentials correlation=corr-1',
      },
      {
        line: 3,
        seq: 0,
        kind: 'team_event',
        at: '2026-12-01T17:03:00.000Z',
        sid: T,
        text:
          `team event: ${T} run_failed run=run_1 agent=researcher task=task_1 status=failed reason=- error=rate limited` +
          ' message=survey the repo correlation=-',
      },
      {
        line: 4,
        seq: 0,
        kind: 'team_event',
        at: '2026-12-01T17:03:30.000Z',
        sid: T,
        text: `team event: ${T} team_mission_log agent=- kind=- task=- summary=- next=- correlation=-`,
      },
      {
        line: 4,
        seq: 1,
        kind: 'parser',
        at: '2026-12-01T17:03:30.000Z',
        sid: T,
        text: `parser: ${DB} line 4: team_events: payload_json is not valid JSON: Unexpected end of JSON input`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'team',
        at: '2026-12-01T17:03:30.000Z',
        sid: T,
        text:
          `team: ${T} members=lead(lead,running),researcher(teammate,stopped) tasks=1 messages=1 mission_log=0 runs=1 outcomes=1` +
          ' updated=2026-12-01T17:03:30.000Z',
      },
      {
        line: 1,
        seq: 1,
        kind: 'teammate',
        at: '2026-12-01T17:03:30.000Z',
        sid: T,
        text: `teammate: ${T} researcher model=claude-sonnet-4-5 max_iterations=20 role_prompt=You research the codebase.`,
      },
      {
        line: 2,
        seq: 0,
        kind: 'team',
        at: '2026-12-01T17:10:00.000Z',
        sid: null,
        text: 'team: docs-team members=- tasks=- messages=- mission_log=- runs=- outcomes=- updated=2026-12-01T17:10:00.000Z',
      },
      {
        line: 2,
        seq: 1,
        kind: 'parser',
        at: '2026-12-01T17:10:00.000Z',
        sid: null,
        text: `parser: ${DB} line 2: team_runtime_snapshot: teammates_json is not valid JSON: Unexpected token 'o', "not json" is not valid JSON`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'team_task',
        at: '2026-12-01T17:02:10.000Z',
        sid: T,
        text:
          `team task: ${T} task_1 status=in_progress assignee=researcher depends_on=[] version=2 title=Survey` +
          ' description=find credential readers summary=-',
      },
      {
        line: 1,
        seq: 0,
        kind: 'team_run',
        at: '2026-12-01T17:02:10.000Z',
        sid: T,
        text:
          `team run: ${T} run_1 agent=researcher task=task_1 status=failed started=2026-12-01T17:02:10.000Z` +
          ' ended=2026-12-01T17:03:00.000Z lease_owner=pid-20541 heartbeat=2026-12-01T17:02:50.000Z error=rate limited message=survey the repo',
      },
      {
        line: 1,
        seq: 0,
        kind: 'team_outcome',
        at: '2026-12-01T17:04:00.000Z',
        sid: T,
        text: `team outcome: ${T} out_1 status=finalized sections=files,risks finalized=2026-12-01T17:04:00.000Z title=Credential readers`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'team_outcome_fragment',
        at: '2026-12-01T17:03:50.000Z',
        sid: T,
        text:
          `team outcome fragment: ${T} frag_1 outcome=out_1 section=files agent=researcher run=run_1 status=reviewed` +
          ' reviewed_by=lead reviewed=2026-12-01T17:03:50.000Z content=src/aws.ts reads ~/.aws/credentials',
      },
    ]);
    expect(rows.filter((r) => r.model !== null).map((r) => [r.kind, r.model])).toEqual([
      ['team_event', 'claude-sonnet-4-5'],
      ['teammate', 'claude-sonnet-4-5'],
    ]);
    expect(rows.filter((r) => r.is_error).map((r) => r.kind)).toEqual(['parser', 'parser', 'team_run']);
    expect(new Set(rows.map((r) => `${r.store} ${r.source_role} ${r.turn_type}`))).toEqual(new Set(['teams-db primary system']));
  });

  it('matches its generator (DEMO_ROWS with the real DDL)', async () => {
    const img = imageWith('teams-db', 'teams.db', DEMO_ROWS['teams-db']);
    const fresh = await readDiscovered('teams-db', img.imageRoot);
    const committed = await readDiscovered('teams-db', fixture('teams-db', 'img'));
    expect(fresh.rows.map(brief)).toEqual(committed.rows.map(brief));
  });
});

describe('readTeamsDb on databases built here', () => {
  const event = (n: number, payload: unknown) => ({
    team_name: 'Team One',
    ts: `2026-12-01T18:00:0${n}.000Z`,
    event_type: (payload as { type: string }).type,
    payload_json: payload,
  });

  it('sums up agent events and task ends without copying them, and reads events only in the -wal', async () => {
    const img = imageWith(
      'teams-db',
      'teams.db',
      {
        team_events: [event(1, { type: 'agent_event', agentId: 'a1', event: { type: 'content_delta', text: 'x'.repeat(100) } })],
      },
      {
        walTables: {
          team_events: [
            event(2, { type: 'task_end', agentId: 'a1', result: { finishReason: 'completed', messages: [{}, {}, {}] } }),
            event(3, { type: 'outcome_created', outcome: { id: 'o1', status: 'draft', createdBy: 'lead', title: 'Report' } }),
            event(4, { type: 'future_event', agentId: 'a2', detail: 1 }),
          ],
        },
      },
    );
    const rows = await collect(readTeamsDb, makeSource({ store: 'teams-db', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map((r) => r.text)).toEqual([
      'team event: Team One agent_event agent=a1 event=content_delta correlation=-',
      'team event: Team One task_end agent=a1 finish=completed messages=3 error=- correlation=-',
      'team event: Team One outcome_created outcome=o1 status=draft created_by=lead title=Report correlation=-',
      'team event: Team One future_event agent=a2 keys=type,agentId,detail correlation=-',
    ]);
    expect(rows.every((r) => r.session_id === null)).toBe(true);
  });

  it('reads a state_json nested 20,000 levels deep and a huge role prompt without throwing', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const img = imageWith('teams-db', 'teams.db', {
      team_runtime_snapshot: [
        {
          team_name: 't',
          state_json: `{"members": ${deep}, "tasks": ${deep}}`,
          teammates_json: `[{"agentId": ${deep}, "rolePrompt": ${JSON.stringify('p '.repeat(50_000))}, "modelId": {"deep": true}}]`,
          updated_at: '2026-12-01T18:00:00.000Z',
        },
      ],
    });
    const rows = await collect(readTeamsDb, makeSource({ store: 'teams-db', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map((r) => r.kind)).toEqual(['team', 'teammate']);
    expect(rows[0].text).toBe(
      'team: t members=-(-,-) tasks=1 messages=- mission_log=- runs=- outcomes=- updated=2026-12-01T18:00:00.000Z',
    );
    // JSON.stringify of the deep agent id overflows and is caught (values.ts show); the role prompt is cut at 8,000
    expect(rows[1].text).toMatch(/^teammate: t \[array nested too deeply to show\] model=- max_iterations=- role_prompt=p p p /);
    expect(rows[1].text?.length).toBeLessThan(8200);
    expect(rows[1].model).toBe(null);
  });

  it('gives one parser row for a database with none of its tables and for a zero-byte file', async () => {
    const img = imageWith('teams-db', 'teams.db', {}, { ddl: ['CREATE TABLE team_mailbox (x)'] });
    let rows = await collect(readTeamsDb, makeSource({ store: 'teams-db', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map((r) => r.text)).toEqual([
      `parser: ${DB}: none of the tables team_events, team_runtime_snapshot, team_tasks, team_runs, team_outcomes,` +
        ' team_outcome_fragments (unknown schema; teams.db)',
    ]);
    fs.writeFileSync(path.join(img.dbDir, 'teams.db'), '');
    rows = await collect(readTeamsDb, makeSource({ store: 'teams-db', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map((r) => r.text)).toEqual([`parser: ${DB}: empty file (0 bytes), not an SQLite database`]);
  });
});

describe('readTeamsDb on the real 3.0.65 home', () => {
  it('reads teams.db with its -wal and -shm, which hold the schema version row only: no rows, no byte changed', async () => {
    const { rows, files } = await readRealHome('teams-db', REAL_3X_IMAGE);
    expect(files).toEqual([
      'home/.cline/data/db/teams.db',
      'home/.cline/data/db/teams.db-shm',
      'home/.cline/data/db/teams.db-wal',
    ]);
    expect(rows).toEqual([]);
  });
});
