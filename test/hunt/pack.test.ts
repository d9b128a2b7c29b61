/**
 * The hunt pack's files: every header parses and documents what docs/HUNTS.md's pack table shows, each
 * hunt's SELECT returns exactly the columns its header names (prepared on a real warehouse, the demo
 * fleet's), and a broken header is an error that names its file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDING_COLUMNS, HEADER_KEYS, HUNTS_DIR, loadHuntPack, parseHunt, SEVERITIES } from '../../src/hunt/pack.js';
import { prepareQuery } from '../../src/warehouse/query-sandbox.js';
import { withQueryConnection } from '../../src/warehouse/build.js';
import { cli, tempOut } from '../helpers/hunt-run.js';

const pack = await loadHuntPack();
const temp = tempOut('hunt-pack');

beforeAll(async () => {
  const load = await cli(['load', '--fleet', 'fixtures/fleet', '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
});

afterAll(() => temp.remove());

const GOOD = `-- id: some-hunt
-- title: A hunt
-- severity: low
-- attack: T1059.004, T1552
-- agents: cline, roo-code
-- scope: host
-- description: What it finds,
--   over two lines.
-- false_positives: none known
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
select host, session_id, row_id, timestamp_utc, text as summary, source_file from events;
`;

describe('the hunt pack (hunts/)', () => {
  it('holds the hunts issue 15 lists, sorted by id, one per file', () => {
    expect(pack.map((h) => h.id)).toEqual([...pack.map((h) => h.id)].sort());
    expect(pack.map((h) => `${h.id}.sql`)).toEqual(
      fs
        .readdirSync(HUNTS_DIR)
        .filter((n) => n.endsWith('.sql'))
        .sort(),
    );
    for (const id of [
      'unapproved-destructive-command',
      'credential-access',
      'data-exfiltration',
      'transcript-left-host',
      'safety-turned-off',
      'secret-on-several-hosts',
      'secret-in-prompt',
      'agent-persistence',
      'prompt-injection',
    ])
      expect(pack.map((h) => h.id)).toContain(id);
  });

  it.each(pack.map((h) => [h.id, h]))(
    '%s: its header documents every field, and it returns the columns it names',
    async (_id, hunt) => {
      expect(SEVERITIES).toContain(hunt.severity);
      expect(hunt.title.length).toBeGreaterThan(10);
      expect(hunt.description.length).toBeGreaterThan(80);
      expect(hunt.falsePositives.length).toBeGreaterThan(20);
      for (const technique of hunt.attack) expect(technique).toMatch(/^T\d{4}(\.\d{3})?$/);
      expect(hunt.columns).toEqual([...FINDING_COLUMNS]);
      const names = await withQueryConnection(temp.out, {}, async (conn) => {
        const prepared = await prepareQuery(conn, hunt.sql);
        try {
          return Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
        } finally {
          prepared.destroySync();
        }
      });
      expect(names).toEqual(hunt.columns);
    },
  );

  it('parses a header: continued lines, techniques, the SQL without its semicolon', () => {
    const hunt = parseHunt(GOOD, '/x/some-hunt.sql');
    expect(hunt).toMatchObject({
      id: 'some-hunt',
      severity: 'low',
      attack: ['T1059.004', 'T1552'],
      agents: ['cline', 'roo-code'],
      scope: 'host',
      description: 'What it finds, over two lines.',
      falsePositives: 'none known',
      columns: [...FINDING_COLUMNS],
      file: '/x/some-hunt.sql',
    });
    expect(hunt.sql.endsWith('from events')).toBe(true);
    expect(parseHunt(GOOD.replace('-- attack: T1059.004, T1552', '-- attack:'), '/x/some-hunt.sql').attack).toEqual([]);
  });

  it.each([
    [
      'a missing key',
      GOOD.replace(/^-- false_positives:.*\n/m, ''),
      /hunt \/x\/some-hunt\.sql: header lacks '-- false_positives:'/,
    ],
    [
      'a bad severity',
      GOOD.replace('severity: low', 'severity: urgent'),
      /hunt \/x\/some-hunt\.sql: severity 'urgent' is not one of/,
    ],
    ['an empty title', GOOD.replace('title: A hunt', 'title:'), /hunt \/x\/some-hunt\.sql: header 'title' is empty/],
    ['a bad technique', GOOD.replace('T1552', 'TA0006'), /'TA0006' is not an ATT&CK technique id/],
    [
      'an agent of no family',
      GOOD.replace('agents: cline, roo-code', 'agents: cline, copilot'),
      /agents 'copilot' is not one of/,
    ],
    ['no agent', GOOD.replace('agents: cline, roo-code', 'agents:'), /header 'agents' is empty/],
    ['no scope', GOOD.replace(/^-- scope:.*\n/m, ''), /header lacks '-- scope:'/],
    [
      'a scope that is neither host nor fleet',
      GOOD.replace('scope: host', 'scope: session'),
      /scope 'session' is not one of host, fleet/,
    ],
    ['an id that is not the file name', GOOD.replace('id: some-hunt', 'id: other-hunt'), /differs from the file name/],
    ['a finding column missing', GOOD.replace(', source_file\n', '\n'), /columns must name source_file/],
    ['a key given twice', GOOD.replace('-- title: A hunt', '-- title: A hunt\n-- title: again'), /'title' given twice/],
  ])('refuses %s, naming the file', (_what, text, message) => {
    expect(() => parseHunt(text, '/x/some-hunt.sql')).toThrow(message);
  });

  it('refuses a pack with a broken file, naming it', async () => {
    const dir = fs.mkdtempSync(path.join(temp.dir, 'pack-'));
    fs.writeFileSync(path.join(dir, 'some-hunt.sql'), GOOD);
    fs.writeFileSync(
      path.join(dir, 'bad-hunt.sql'),
      GOOD.replace('id: some-hunt', 'id: bad-hunt').replace('severity: low', 'severity: 5'),
    );
    await expect(loadHuntPack(dir)).rejects.toThrow(`hunt ${path.join(dir, 'bad-hunt.sql')}: severity '5'`);
    fs.rmSync(path.join(dir, 'bad-hunt.sql'));
    expect((await loadHuntPack(dir)).map((h) => h.id)).toEqual(['some-hunt']);
  });

  it('header keys are the contract of issue 15', () => {
    expect([...HEADER_KEYS]).toEqual([
      'id',
      'title',
      'severity',
      'attack',
      'agents',
      'scope',
      'description',
      'false_positives',
      'columns',
    ]);
  });
});
