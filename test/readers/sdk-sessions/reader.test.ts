/** readers/sdk-sessions/reader.ts on fixtures/sdk-sessions/ (invented) and on the real SDK session in ../shared. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSdkSessions } from '../../../src/readers/sdk-sessions/reader.js';
import { collect, fixture, listFiles, makeSource, REPO } from '../../helpers/source.js';

const IMG = fixture('sdk-sessions', 'img');
const ROOT = path.join(IMG, 'home/u/.cline/data');
const SESSIONS = 'home/u/.cline/data/sessions';

const K3 = '1760000000000_k3x9q';
const IMPORTED = '1760000800000_imp7r';
const ENTERPRISE = '1760001000000_ent4z';
const CUT = '1760002000000_cut5p';
const NO_MANIFEST = '1760003000000_nomf2';
const AGENT = 'agent_1760000002500_q7w8e9';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const of = (rows: Row[], sessionId: string): Row[] => rows.filter((r) => r.session_id === sessionId);
const fromFile = (rows: Row[], name: string): Row[] => rows.filter((r) => r.source_file.endsWith(`/${name}`));

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe('readSdkSessions on fixtures/sdk-sessions', async () => {
  const rows = await collect(readSdkSessions, makeSource({ store: 'sdk-sessions', imageRoot: IMG, root: ROOT }));

  it('yields the expected rows per session folder, folders in path order', () => {
    expect(rows.length).toBe(37);
    expect(of(rows, K3).length).toBe(18);
    expect(of(rows, IMPORTED).length).toBe(5);
    expect(of(rows, ENTERPRISE).length).toBe(4);
    expect(of(rows, CUT).length).toBe(5);
    expect(of(rows, NO_MANIFEST).length).toBe(5);
    expect([...new Set(rows.map((r) => r.session_id))]).toEqual([K3, IMPORTED, ENTERPRISE, CUT, NO_MANIFEST]);
    for (const r of rows) {
      expect(r.store).toBe('sdk-sessions');
      expect(r.source_file.startsWith(`${SESSIONS}/${r.session_id}/`)).toBe(true);
    }
  });

  it('writes the start and model rows of the manifest, then the lead transcript, then the subagent', () => {
    const k3 = of(rows, K3);
    expect(k3.slice(0, 2).map((r) => [r.kind, r.source_file, r.source_line, r.source_seq, iso(r.timestamp_utc)])).toEqual([
      ['session_start', `${SESSIONS}/${K3}/${K3}.json`, 1, 0, '2026-10-03T09:00:00.000Z'],
      ['model', `${SESSIONS}/${K3}/${K3}.json`, 1, 1, '2026-10-03T09:00:00.000Z'],
    ]);
    expect(k3[0].text).toBe(
      'session start: source=cli status=completed pid=4242 cwd=/home/u/proj workspace_root=/home/u/proj title=fix tests',
    );
    expect(k3[1].text).toBe('model: claude-sonnet-4-5 provider=anthropic');
    expect(k3.slice(2, 14).every((r) => r.source_file.endsWith(`/${K3}.messages.json`))).toBe(true);
    expect(k3.slice(14).every((r) => r.source_file.endsWith(`/${AGENT}.messages.json`))).toBe(true);
  });

  it('names the source of an imported session on its start row', () => {
    const imported = of(rows, IMPORTED);
    expect(imported.map((r) => r.kind)).toEqual(['session_start', 'model', 'session_end', 'text', 'text']);
    expect(imported[0].text).toBe(
      'session start: source=desktop status=completed pid=5100 cwd=/home/u/proj workspace_root=/home/u/proj' +
        ' title=port the parser imported_from=claude-code imported_session=5f0c1d2e-0000-4000-8000-00000000c1a0' +
        ' imported_path=/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl imported_at=2026-10-03T09:20:00.000Z' +
        ' imported_provider=anthropic imported_model=claude-opus-4-5',
    );
    // the fact as a column too, on the start row only
    expect(imported.map((r) => r.imported_from)).toEqual(['claude-code', null, null, null, null]);
    expect(imported[1].text).toBe('model: claude-opus-4-5 provider=anthropic');
    expect([imported[2].text, iso(imported[2].timestamp_utc)]).toEqual([
      'session end: status=completed exit_code=0',
      '2026-10-03T09:20:01.000Z',
    ]);
  });

  it('writes the enterprise upload row after the model row and skips the compaction sidecar', () => {
    const enterprise = of(rows, ENTERPRISE);
    expect(enterprise.map((r) => r.kind)).toEqual(['session_start', 'model', 'sync', 'text']);
    expect(enterprise[2].text).toBe(
      'session synced: enterprise prompt upload to s3 bucket acme-cline-prompts object' +
        ` sessions/usr_0f9e8d7c/${ENTERPRISE}/messages.json endpoint=- region=eu-west-1 account=-` +
        ` (from ${ENTERPRISE}.json metadata enterprise.blobUpload, started_at)`,
    );
    expect([enterprise[2].turn_type, iso(enterprise[2].timestamp_utc)]).toEqual(['system', '2026-10-09T14:00:00.000Z']);
    expect(enterprise.map((r) => r.sync_target)).toEqual([
      null,
      null,
      `s3 bucket acme-cline-prompts object sessions/usr_0f9e8d7c/${ENTERPRISE}/messages.json`,
      null,
    ]);
    expect(enterprise.every((r) => r.imported_from === null)).toBe(true);
    expect(rows.some((r) => r.source_file.endsWith('.compaction.json'))).toBe(false);
    expect([iso(enterprise[3].timestamp_utc), enterprise[3].model, enterprise[3].project_path]).toEqual([
      '2026-10-09T14:00:00.500Z',
      'anthropic/claude-sonnet-4.5',
      '/home/u/work/api',
    ]);
  });

  it('maps every content block type of the lead transcript', () => {
    const lead = fromFile(rows, `${K3}.messages.json`);
    expect(lead.map((r) => [r.source_line, r.source_seq, r.turn_type, r.kind, r.tool_name, r.text])).toEqual([
      [1, 0, 'user', 'text', null, 'fix tests'],
      [2, 0, 'thinking', 'thinking', null, 'run the suite'],
      [2, 1, 'tool_use', 'tool_use', 'bash', 'pytest -q'],
      [3, 0, 'tool_result', 'tool_result', 'bash', '3 passed'],
      [4, 0, 'thinking', 'redacted_thinking', null, '[redacted thinking]'],
      [4, 1, 'tool_use', 'tool_use', 'web_fetch', '{"url":"https://docs.pytest.org/en/stable/"}'],
      [5, 0, 'tool_result', 'tool_result', 'web_fetch', '{"error":"Tool \\"web_fetch\\" is disabled by policy"}'],
      [6, 0, 'user', 'text', null, 'the failure is in @src/app.py, see the screenshot'],
      [6, 1, 'user', 'image', null, '[1 image(s)]'],
      [6, 2, 'user', 'file', null, 'file /home/u/proj/src/app.py:\ndef add(a, b):\n    return a - b\n'],
      [6, 3, 'user', 'media', null, '[media application/pdf report.pdf]'],
      [7, 0, 'system', 'block:citation', null, '{"type":"citation","url":"https://docs.pytest.org/","title":"pytest docs"}'],
    ]);
    expect(lead.every((r) => !(r.text ?? '').includes('iVBORw0KGgo'))).toBe(true);
  });

  it('marks the policy-blocked web_fetch result as an error, and the passing result as not one', () => {
    const results = fromFile(rows, `${K3}.messages.json`).filter((r) => r.kind === 'tool_result');
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ['call_1', false],
      ['call_2', true],
    ]);
    expect(results[1].text).toBe('{"error":"Tool \\"web_fetch\\" is disabled by policy"}');
    expect(JSON.parse(results[1].text ?? '{}')).toEqual({ error: 'Tool "web_fetch" is disabled by policy' });
    expect(iso(results[1].timestamp_utc)).toBe('2025-10-09T08:53:24.000Z');
  });

  it('follows the model in force and puts metrics on the first block row only', () => {
    const lead = fromFile(rows, `${K3}.messages.json`);
    expect(lead.map((r) => r.model)).toEqual([...Array(11).fill('claude-sonnet-4-5'), 'claude-opus-4-5']);
    expect(lead.map((r) => [r.tokens_in, r.tokens_out, r.cost_usd]).filter((t) => t[0] !== null)).toEqual([
      [1200, 80, 0.0041],
      [2400, 150, 0.021],
    ]);
    expect(lead[2].tokens_in).toBeNull();
    expect(rows.some((r) => r.kind.startsWith('model') && r.text?.includes('->'))).toBe(false);
  });

  it('dates a message without ts at the manifest start', () => {
    const m6 = fromFile(rows, `${K3}.messages.json`).filter((r) => r.source_line === 6);
    expect(m6.map((r) => iso(r.timestamp_utc))).toEqual(Array(4).fill('2026-10-03T09:00:00.000Z'));
  });

  it('gives subagent rows the folder session_id and the subagent model, starting from none', () => {
    const agent = fromFile(rows, `${AGENT}.messages.json`);
    expect(agent.map((r) => [r.session_id, r.source_line, r.kind, r.model, r.provider, iso(r.timestamp_utc)])).toEqual([
      [K3, 1, 'text', null, null, '2025-10-09T08:53:22.600Z'],
      [K3, 2, 'tool_use', 'claude-haiku-4-5', 'anthropic', '2025-10-09T08:53:22.700Z'],
      [K3, 3, 'tool_result', 'claude-haiku-4-5', 'anthropic', '2025-10-09T08:53:22.800Z'],
      [K3, 4, 'text', 'claude-haiku-4-5', 'anthropic', '2025-10-09T08:53:22.900Z'],
    ]);
    expect(agent[0].turn_type).toBe('user');
    expect(agent[2].text).toBe('def test_add():\n    assert add(1, 2) == 3');
    expect(agent[3].turn_type).toBe('assistant');
  });

  it('keeps the rows before a truncation and ends the file with one parser row', () => {
    const cut = of(rows, CUT);
    expect(cut.map((r) => r.kind)).toEqual(['session_start', 'model', 'text', 'tool_use', 'parser']);
    expect(cut[3].text).toBe('npm outdated\nnpm update');
    const parser = cut[4];
    expect([parser.turn_type, parser.source_line, parser.is_error, parser.session_id]).toEqual(['system', null, true, CUT]);
    expect(parser.text).toMatch(
      new RegExp(`^parser: ${SESSIONS}/${CUT}/${CUT}\\.messages\\.json: .+ \\(after 2 message\\(s\\)\\)$`),
    );
    expect(rows.filter((r) => r.kind === 'parser').length).toBe(3);
  });

  it('reads a transcript without a manifest: no start rows, ts null where absent, model from modelInfo only', () => {
    const bare = of(rows, NO_MANIFEST);
    expect(bare.map((r) => [r.source_line, r.turn_type, r.kind, r.model, iso(r.timestamp_utc), r.project_path])).toEqual([
      [1, 'user', 'text', null, '2026-10-10T08:00:00.000Z', null],
      [2, 'assistant', 'text', 'gpt-5', null, null],
      [3, 'system', 'parser', null, null, null],
      [4, 'system', 'parser', null, '2026-10-10T08:00:03.000Z', null],
      [5, 'system', 'text', 'gpt-5', '2026-10-10T08:00:04.000Z', null],
    ]);
    const file = `${SESSIONS}/${NO_MANIFEST}/${NO_MANIFEST}.messages.json`;
    expect(bare[2].text).toBe(`parser: ${file} line 3: message is not an object`);
    expect(bare[3].text).toBe(`parser: ${file} line 4: message has no string or array content`);
  });

  it('writes one full tool_use row', () => {
    const row = fromFile(rows, `${K3}.messages.json`).find((r) => r.tool_use_id === 'call_1' && r.kind === 'tool_use');
    expect(row).toEqual({
      host: 'test-host',
      store: 'sdk-sessions',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: `${SESSIONS}/${K3}/${K3}.messages.json`,
      source_line: 2,
      source_seq: 1,
      source_role: 'primary',
      timestamp_utc: 1760000002000,
      timestamp_source: 'recorded',
      session_id: K3,
      project_path: '/home/u/proj',
      git_branch: null,
      turn_type: 'tool_use',
      kind: 'tool_use',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tool_name: 'bash',
      tool_use_id: 'call_1',
      text: 'pytest -q',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: null,
      file_row: null,
      permission_mode: null,
      sync_target: null,
      session_origin: null,
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });
});

describe('readSdkSessions on other layouts', () => {
  it('reads the same folders under a Windows home and reports a stray file as a parser row', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sdk-'));
    tmpDirs.push(img);
    const root = path.join(img, 'C/Users/alice/.cline/data');
    cpSync(path.join(ROOT, 'sessions'), path.join(root, 'sessions'), { recursive: true });
    writeFileSync(path.join(root, 'sessions', K3, 'notes.json'), '{}\n');
    const source = makeSource({ store: 'sdk-sessions', imageRoot: img, root, home: 'C/Users/alice' });
    const rows = await collect(readSdkSessions, source);
    expect(rows.length).toBe(38);
    expect(rows.every((r) => r.source_file.startsWith('C/Users/alice/.cline/data/sessions/'))).toBe(true);
    const k3 = of(rows, K3);
    expect(k3.length).toBe(19);
    expect([k3[18].kind, k3[18].text]).toEqual([
      'parser',
      `parser: C/Users/alice/.cline/data/sessions/${K3}/notes.json: not a session manifest or messages file; not read`,
    ]);
  });

  it('turns a manifest that is not an object into one parser row and still reads the transcript', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sdk-'));
    tmpDirs.push(img);
    const root = path.join(img, 'Users/bob/.cline/data');
    const folder = path.join(root, 'sessions', ENTERPRISE);
    mkdirSync(folder, { recursive: true });
    cpSync(path.join(ROOT, 'sessions', ENTERPRISE), folder, { recursive: true });
    writeFileSync(path.join(folder, `${ENTERPRISE}.json`), '[1, 2]\n');
    const rows = await collect(readSdkSessions, makeSource({ store: 'sdk-sessions', imageRoot: img, root, home: 'Users/bob' }));
    expect(rows.map((r) => [r.kind, r.model, iso(r.timestamp_utc)])).toEqual([
      ['parser', null, null],
      ['text', null, '2026-10-09T14:00:00.500Z'],
    ]);
    expect(rows[0].text).toBe(
      `parser: Users/bob/.cline/data/sessions/${ENTERPRISE}/${ENTERPRISE}.json: manifest is not a JSON object`,
    );
  });
});

const SHARED = path.resolve(REPO, '../shared/real-cline');
/** The real session is beside the repository on the team's machines (../shared/README.md), not in a fresh clone. */
const HAS_SHARED = existsSync(path.join(SHARED, 'session_session.json'));

describe('readSdkSessions on the real SDK session (../shared/real-cline)', () => {
  it('reads the 32 messages of 1784094124598_rruoq as 42 block rows after 3 manifest rows', async (ctx) => {
    if (!HAS_SHARED) return ctx.skip(`the real SDK session is not here: ${SHARED} is absent (a fresh clone has no ../shared)`);
    const manifest = JSON.parse(readFileSync(path.join(SHARED, 'session_session.json'), 'utf8')) as { session_id: string };
    const sid = manifest.session_id;
    expect(sid).toBe('1784094124598_rruoq');
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sdk-real-'));
    tmpDirs.push(img);
    const root = path.join(img, 'home/u/.cline/data');
    const folder = path.join(root, 'sessions', sid);
    mkdirSync(folder, { recursive: true });
    cpSync(path.join(SHARED, 'session_session.json'), path.join(folder, `${sid}.json`));
    cpSync(path.join(SHARED, 'session_session.messages.json'), path.join(folder, `${sid}.messages.json`));
    const rows = await collect(
      readSdkSessions,
      makeSource({ store: 'sdk-sessions', imageRoot: img, root, files: listFiles(root) }),
    );

    expect(rows.length).toBe(45);
    expect(rows.slice(0, 3).map((r) => [r.kind, iso(r.timestamp_utc)])).toEqual([
      ['session_start', '2026-07-15T05:42:04.609Z'],
      ['model', '2026-07-15T05:42:04.609Z'],
      ['session_end', '2026-07-15T05:42:04.865Z'],
    ]);
    expect(rows[1].text).toBe('model: mistralai/mixtral-8x22b-instruct provider=cline');
    const messages = rows.slice(3);
    expect(new Set(messages.map((r) => r.source_line)).size).toBe(32);
    expect(messages.every((r) => r.session_id === sid && r.project_path === '/Users/example/dev/cline')).toBe(true);
    const count = (kind: string, tool?: string): number =>
      messages.filter((r) => r.kind === kind && (tool === undefined || r.tool_name === tool)).length;
    expect([count('tool_use', 'read_files'), count('tool_use', 'editor'), count('tool_use', 'run_commands')]).toEqual([6, 4, 1]);
    expect([count('text'), count('tool_use'), count('tool_result'), count('file'), count('parser')]).toEqual([19, 11, 11, 1, 0]);
    expect([iso(messages[0].timestamp_utc), messages[0].turn_type, messages[0].model]).toEqual([
      '2026-07-06T22:27:48.634Z',
      'user',
      'mistralai/mixtral-8x22b-instruct',
    ]);
    expect(
      messages[1].text?.startsWith(
        'file /Users/example/dev/cline/apps/examples/desktop-app/webview/components/agent-sidebar.tsx:\n',
      ),
    ).toBe(true);
    const second = messages.find((r) => r.source_line === 2);
    expect([second?.model, second?.provider, second?.tokens_in, second?.tokens_out]).toEqual([
      'anthropic/claude-opus-4.8-fast',
      'cline',
      34334,
      741,
    ]);
    expect(messages[messages.length - 1].model).toBe('mistralai/voxtral-small-24b-2507');
    expect(messages.filter((r) => r.tokens_in !== null).length).toBe(16);
  });
});

/**
 * The home the released 3.x CLI wrote when corpus/drive.ts drove it (fixtures/real-producer, `make
 * real-corpus`); what was typed in each session is the driver's record, facts.json.
 */
describe('readSdkSessions on the home of the real 3.x CLI (fixtures/real-producer)', async () => {
  const corpus = fixture('real-producer', 'cline-3.0.65');
  const home = path.join(corpus, 'home');
  interface Facts {
    sessions: Array<{
      id: string;
      observedSessionId: string | null;
      deleted: boolean;
      /** The driver denied the session's command (corpus/attacks.ts): its result says so, an error. */
      denied?: boolean;
      prompts: Array<{ text: string; mode: string }>;
      commands: Array<{ command: string; expectedExitCode: number }>;
    }>;
  }
  const facts = JSON.parse(readFileSync(path.join(corpus, 'facts.json'), 'utf8')) as Facts;
  const rows = await collect(
    readSdkSessions,
    makeSource({ store: 'sdk-sessions', imageRoot: home, root: path.join(home, '.cline/data') }),
  );
  const kept = facts.sessions.filter((s) => s.observedSessionId !== null && !s.deleted);

  it('gives each session the prompts as typed, with the mode each was typed in, and no wrapper', () => {
    expect(kept.length).toBeGreaterThan(5);
    for (const s of kept) {
      const prompts = of(rows, s.observedSessionId!).filter((r) => r.turn_type === 'user' && r.kind === 'text');
      expect(
        prompts.map((r) => [r.text, r.permission_mode]),
        s.id,
      ).toEqual(s.prompts.map((p) => [p.text, p.mode]));
    }
    expect(rows.filter((r) => (r.text ?? '').includes('<user_input'))).toEqual([]);
  });

  it("stamps every row of a session with the manifest's git branch: main, the driver's workspace (git init -b main)", () => {
    for (const s of kept) {
      const branches = new Set(of(rows, s.observedSessionId!).map((r) => r.git_branch));
      expect([...branches], s.id).toEqual(['main']);
    }
  });

  it('flags the result of each command the driver expected to fail, or denied, as an error, and no other', () => {
    const expected = kept.flatMap((s) =>
      s.commands.map((c) => [s.observedSessionId, c.expectedExitCode !== 0 || s.denied === true]),
    );
    expect(expected.some(([, failed]) => failed)).toBe(true);
    const results = rows
      .filter((r) => r.kind === 'tool_result' && r.tool_name === 'run_commands')
      .map((r) => [r.session_id, r.is_error]);
    expect(results.sort()).toEqual(expected.sort());
  });
});
