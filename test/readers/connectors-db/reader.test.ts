/**
 * The `connectors-db` store (readers/connectors-db/reader.ts) on its committed fixture (records planted with the
 * real DDL, tokens and ids among them: test/helpers/side-store-rows.ts), on databases built here, and on
 * the real 3.0.65 home, whose connectors.db is empty. No planted secret value may reach a row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readConnectorsDb } from '../../../src/readers/connectors-db/reader.js';
import { CONNECTOR_SECRETS, DEMO_ROWS } from '../../helpers/side-store-rows.js';
import { brief, imageWith, readDiscovered, readRealHome, REAL_3X_IMAGE, removeImages } from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DB = 'home/u/.cline/data/db/connectors.db';
const ARGS =
  '[--provider openrouter --bot-token <value> --bot-username <value> --cwd /workspace --no-tools --hook-command <value>' +
  ' --model=anthropic/claude-sonnet-4.5]';

describe('discovery', () => {
  it('files db/connectors.db as connectors-db, and the legacy connectors/settings.json as credentials', () => {
    expect(storeOf('db/connectors.db', 'cline-data')).toBe('connectors-db');
    expect(storeOf('connectors/settings.json', 'cline-data')).toBe('credentials');
  });
});

describe('readConnectorsDb on the committed fixture', () => {
  it('gives each connector with key names only and each connection with flag names only', async () => {
    const img = fixture('connectors-db', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('connectors-db', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([DB]);
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'connector_config',
        at: '2026-12-01T16:00:00.000Z',
        sid: null,
        text:
          'connector config: telegram type=telegram values_keys=-k security=true security_keys=userId' +
          ' configured=2026-12-01T16:00:00.000Z updated=2026-12-01T16:30:00.000Z',
      },
      {
        line: 2,
        seq: 0,
        kind: 'connector_config',
        at: '2026-12-01T16:40:00.000Z',
        sid: null,
        text:
          'connector config: slack type=slack values_keys=? security=false security_keys=(none)' +
          ' configured=2026-12-01T16:40:00.000Z updated=2026-12-01T16:40:00.000Z',
      },
      {
        line: 2,
        seq: 1,
        kind: 'parser',
        at: '2026-12-01T16:40:00.000Z',
        sid: null,
        text: `parser: ${DB} line 2: connector_configs: values_json is not valid JSON`,
      },
      {
        line: 1,
        seq: 0,
        kind: 'connector_connection',
        at: '2026-12-01T16:31:00.000Z',
        sid: null,
        text:
          'connector connection: telegram cline_bot enabled=true last_connected=2026-12-01T16:31:00.000Z' +
          ` updated=2026-12-01T16:31:00.000Z args=${ARGS} last_successful_args=${ARGS}`,
      },
    ]);
    expect(rows[3]).toMatchObject({ project_path: '/workspace', provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' });
    const everything = JSON.stringify(rows);
    for (const secret of [...CONNECTOR_SECRETS, 'xoxb']) expect(everything).not.toContain(secret);
  });

  it('matches its generator (DEMO_ROWS with the real DDL)', async () => {
    const img = imageWith('connectors-db', 'connectors.db', DEMO_ROWS['connectors-db']);
    const fresh = await readDiscovered('connectors-db', img.imageRoot);
    const committed = await readDiscovered('connectors-db', fixture('connectors-db', 'img'));
    expect(fresh.rows.map(brief)).toEqual(committed.rows.map(brief));
  });
});

describe('readConnectorsDb on databases built here', () => {
  it('never prints a value that looks like a flag, a non-string argument, or a value of a column that is not JSON', async () => {
    const img = imageWith('connectors-db', 'connectors.db', {
      connector_connections: [
        {
          channel: 'discord',
          instance_id: 'bot',
          connect_args_json: ['--token', '-Secret-Token-1', '--api-key=sk-live-abcdef', 42, '--cwd=/srv/app', '-k', 'SECRETX'],
          last_successful_args_json: '["--token", "tok-cut',
          enabled: 0,
          updated_at: '2026-12-01T18:00:00.000Z',
          last_connected_at: '2026-12-01T17:59:00.000Z',
        },
      ],
    });
    const rows = await collect(
      readConnectorsDb,
      makeSource({ store: 'connectors-db', imageRoot: img.imageRoot, root: img.dataRoot }),
    );
    expect(rows.map((r) => r.text)).toEqual([
      'connector connection: discord bot enabled=false last_connected=2026-12-01T17:59:00.000Z updated=2026-12-01T18:00:00.000Z' +
        ' args=[--token <value> --api-key=<value> <value> --cwd=/srv/app -k <value>] last_successful_args=?',
      `parser: ${DB} line 1: connector_connections: last_successful_args_json is not valid JSON`,
    ]);
    expect(rows[0].project_path).toBe('/srv/app');
    for (const secret of ['Secret-Token', 'sk-live', 'SECRETX', 'tok-cut']) expect(JSON.stringify(rows)).not.toContain(secret);
  });
});

describe('readConnectorsDb on the real 3.0.65 home', () => {
  it('reads connectors.db, whose tables are empty: no rows, no byte changed', async () => {
    const { rows, files } = await readRealHome('connectors-db', REAL_3X_IMAGE);
    expect(files).toEqual(['home/.cline/data/db/connectors.db']);
    expect(rows).toEqual([]);
  });
});
