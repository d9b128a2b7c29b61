/**
 * Secrets through a whole load (runLoad on a temporary copy of fixtures/fleet/lnx-u01 with fake keys
 * injected into a transcript and a credential file added): texts hold markers, the `secrets` table holds
 * where each key was and its fingerprint, no file under OUT holds a key, and `--keep-secrets` keeps them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad, type RunRecord } from '../../src/load/run.js';
import { secretFingerprint } from '../../src/write/redact.js';
import { buildWarehouse } from '../../src/warehouse/build.js';
import { fixture, listFiles, REPO } from '../helpers/source.js';
import { FAKE } from '../helpers/fake-secrets.js';
import { queryOut, rowsContaining as rowsContainingIn, whereFound } from '../helpers/warehouse-search.js';

const SID = '1760000000000_k3x9q';
const MESSAGES = `home/u/.cline/data/sessions/${SID}/${SID}.messages.json`;
/** The keys injected, and the kind each must be found as. */
const INJECTED: Array<[string, string]> = [
  [FAKE.openai, 'openai'],
  [FAKE.bearer, 'bearer'],
  [FAKE.github, 'github'],
  [FAKE.awsId, 'aws_access_key_id'],
];

let tmp = '';
let fleet = '';
let out = '';

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-secrets-'));
  fleet = path.join(tmp, 'fleet');
  out = path.join(tmp, 'out');
  const host = path.join(fleet, 'lnx-u01');
  fs.cpSync(fixture('fleet', 'lnx-u01'), host, { recursive: true });
  // the command, its output and a later prompt of session k3x9q carry keys
  const file = path.join(host, MESSAGES);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  doc.messages[1].content[1].input.command = `curl -H "Authorization: Bearer ${FAKE.bearer}" https://api.example.com && pytest -q`;
  doc.messages[2].content[0].content = `3 passed\nOPENAI_API_KEY=${FAKE.openai}\nAWS_ACCESS_KEY_ID=${FAKE.awsId}`;
  doc.messages[5].content[0].text = `All 3 tests pass. I used ${FAKE.openai} and ${FAKE.github}.`;
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  fs.copyFileSync(
    fixture('credentials', 'img', 'home', 'u', '.cline', 'data', 'secrets.json'),
    path.join(host, 'home/u/.cline/data/secrets.json'),
  );
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const query = (sql: string) => queryOut(out, sql);
const rowsContaining = (needle: string) => rowsContainingIn(out, needle);

describe('a load redacts secrets by default', () => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runLoad({ fleet, out });
  });

  it('replaces each key by its marker in the texts', async () => {
    const rows = await query(
      `select source_line, source_seq, kind, text from raw_events where source_file like '%${SID}.messages.json' and text like '%[REDACTED:%' order by all`,
    );
    const m = (secret: string, kind: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
    expect(rows).toEqual([
      ['2', 1, 'tool_use', expect.stringContaining(`Authorization: Bearer ${m(FAKE.bearer, 'bearer')}" https://api.example.com`)],
      [
        '3',
        0,
        'tool_result',
        `3 passed\nOPENAI_API_KEY=${m(FAKE.openai, 'openai')}\nAWS_ACCESS_KEY_ID=${m(FAKE.awsId, 'aws_access_key_id')}`,
      ],
      ['6', 0, 'text', `All 3 tests pass. I used ${m(FAKE.openai, 'openai')} and ${m(FAKE.github, 'github')}.`],
    ]);
    expect(run.secrets_redacted).toBe(true);
    expect(run.secrets_found).toBe(5);
  });

  it('lists every hit in the secrets table with its place and fingerprint', async () => {
    expect(
      await query(
        'select host, store, session_id, source_file, source_line, source_seq, row_kind, kind, fingerprint from secrets order by source_line, kind',
      ),
    ).toEqual([
      ['lnx-u01', 'sdk-sessions', SID, MESSAGES, '2', 1, 'tool_use', 'bearer', secretFingerprint(FAKE.bearer)],
      ['lnx-u01', 'sdk-sessions', SID, MESSAGES, '3', 0, 'tool_result', 'aws_access_key_id', secretFingerprint(FAKE.awsId)],
      ['lnx-u01', 'sdk-sessions', SID, MESSAGES, '3', 0, 'tool_result', 'openai', secretFingerprint(FAKE.openai)],
      ['lnx-u01', 'sdk-sessions', SID, MESSAGES, '6', 0, 'text', 'github', secretFingerprint(FAKE.github)],
      ['lnx-u01', 'sdk-sessions', SID, MESSAGES, '6', 0, 'text', 'openai', secretFingerprint(FAKE.openai)],
    ]);
    // one key, followed across the rows it leaked into
    expect(await query(`select count(*) from secrets where fingerprint = '${secretFingerprint(FAKE.openai)}'`)).toEqual([['2']]);
  });

  it('keeps no key anywhere under OUT: not in Parquet, fleet.duckdb, the secrets files or state', async () => {
    expect(listFiles(out).some((f) => /^_secrets\..+\.jsonl$/.test(path.basename(f)))).toBe(true);
    expect(
      await whereFound(
        out,
        INJECTED.map(([secret]) => secret),
      ),
    ).toEqual([]);
  });

  it('flags the credential file in files and lists its key names only', async () => {
    expect(await query('select store, source_file, holds_credentials from files where holds_credentials order by all')).toEqual([
      ['credentials', 'home/u/.cline/data/secrets.json', true],
      ['settings', 'home/u/.cline/data/settings/cline_mcp_settings.json', true],
    ]);
    expect(await query("select turn_type, text from events where kind = 'credential_file'")).toEqual([
      [
        'system',
        'credential file: .cline/data/secrets.json keys=apiKey,openRouterApiKey,awsAccessKey,awsSecretKey,clineAccountId',
      ],
    ]);
    expect(await whereFound(out, ['FAKE-VALUE'])).toEqual([]);
  });
});

describe('--keep-secrets', () => {
  it('reads every partition again and stores texts as found, with no secrets table rows and no secrets file', async () => {
    const run = await runLoad({ fleet, out, keepSecrets: true });
    expect(run.is_full_load).toBe(true);
    expect(run.partitions_unchanged).toBe(0);
    expect(run.secrets_redacted).toBe(false);
    expect(listFiles(out).some((f) => /^_secrets\..+\.jsonl$/.test(path.basename(f)))).toBe(false);
    expect(await query('select count(*) from secrets')).toEqual([['0']]);
    for (const [secret] of INJECTED) expect(await rowsContaining(secret), secret.slice(0, 6)).not.toEqual([]);
    expect(await query("select count(*) from raw_events where text like '%[REDACTED:%'")).toEqual([['0']]);
    // key values of credential files are never loaded, whatever the setting
    expect(await whereFound(out, ['FAKE-VALUE'])).toEqual([]);
  });

  it('a later default load redacts again (the setting is part of the loader version)', async () => {
    const run = await runLoad({ fleet, out });
    expect(run.is_full_load).toBe(true);
    expect(run.secrets_found).toBe(5);
    expect(
      await whereFound(
        out,
        INJECTED.map(([secret]) => secret),
      ),
    ).toEqual([]);
    expect(await query('select count(*) from secrets')).toEqual([['5']]);
    const again = await runLoad({ fleet, out });
    expect([again.is_full_load, again.partitions_written]).toEqual([false, 0]);
  });
});

describe('content columns, derived model rows and quotes of bad lines (issue 9 point 7)', () => {
  const HOOKS = 'home/u/.cline/data/logs/hooks.jsonl';
  const m = (secret: string, kind: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
  /** Keys planted in columns other than text: [key, the column that holds it, its kind]. */
  const PLANTED: Array<[string, string, string]> = [
    [FAKE.gitlab, 'project_path', 'gitlab'], // SDK manifest cwd
    [FAKE.slack, 'git_branch', 'slack'], // hooks workspaceInfo.latestGitBranchName
    [FAKE.openrouter, 'model', 'openrouter'], // SDK manifest model
    [FAKE.awsId, 'provider', 'aws_access_key_id'], // SDK manifest provider
    [FAKE.anthropic, 'model', 'anthropic'], // a transcript message's modelInfo.id
    [FAKE.google, 'tool_name', 'google'], // a tool call's name
    [FAKE.openaiLegacy, 'tool_use_id', 'openai'], // a tool call's id
    [FAKE.googleOauth, 'session_id', 'google'], // hooks sessionContext.rootSessionId
  ];
  /** A key at the start of a bad JSONL line (a JWT, whose cut start no detector matches). */
  const BAD_LINE_KEY = FAKE.jwt;
  /** A key where V8's JSON.parse message quotes a manifest that is not JSON. */
  const V8_KEY = FAKE.github;
  /** A key in a folder name: kept in source_file, a documented limit. */
  const PATH_KEY = FAKE.githubFine;
  const badStart = `${BAD_LINE_KEY} was pasted here`;
  const badCross = `${'x'.repeat(40)} ${FAKE.anthropic}`;
  let out2 = '';

  beforeAll(async () => {
    const fleet2 = path.join(tmp, 'fleet2');
    out2 = path.join(tmp, 'out2');
    const host = path.join(fleet2, 'lnx-u01');
    fs.cpSync(fixture('fleet', 'lnx-u01'), host, { recursive: true });
    const sessions = path.join(host, 'home/u/.cline/data/sessions');
    // biome-ignore lint/suspicious/noExplicitAny: a fixture's JSON, edited by path
    const edit = (file: string, change: (doc: any) => void) => {
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      change(doc);
      fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    };
    edit(path.join(sessions, SID, `${SID}.json`), (manifest) => {
      manifest.cwd = manifest.workspace_root = `/home/u/${FAKE.gitlab}/proj`;
      manifest.model = FAKE.openrouter;
      manifest.provider = FAKE.awsId;
    });
    edit(path.join(host, MESSAGES), (doc) => {
      doc.messages[3].modelInfo.id = FAKE.anthropic;
      Object.assign(doc.messages[1].content[1], { id: FAKE.openaiLegacy, name: FAKE.google });
      Object.assign(doc.messages[2].content[0], { tool_use_id: FAKE.openaiLegacy, name: FAKE.google });
    });
    const hooksFile = path.join(host, HOOKS);
    const lines = fs
      .readFileSync(hooksFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const second = JSON.parse(lines[1]);
    second.workspaceInfo.latestGitBranchName = `feature/${FAKE.slack}`;
    lines[1] = JSON.stringify(second);
    const session = { sessionContext: { rootSessionId: FAKE.googleOauth }, workspaceRoots: ['/home/u/ops'] };
    lines.push(
      JSON.stringify({
        ts: '2026-10-04T10:00:00.000Z',
        hookName: 'prompt_submit',
        ...session,
        userPromptSubmit: { prompt: 'deploy' },
      }),
    );
    lines.push(
      JSON.stringify({ ts: '2026-10-04T10:00:05.000Z', hookName: 'agent_end', ...session, turn: { outputText: 'deployed' } }),
    );
    lines.push(badStart, badCross);
    fs.writeFileSync(hooksFile, `${lines.join('\n')}\n`);
    const bad = path.join(sessions, '1760000900000_bad01');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, '1760000900000_bad01.json'), `{"session_id": "1760000900000_bad01", "model": ${V8_KEY}}`);
    const named = path.join(sessions, PATH_KEY);
    fs.mkdirSync(named);
    fs.writeFileSync(
      path.join(named, `${PATH_KEY}.json`),
      JSON.stringify({ session_id: PATH_KEY, started_at: '2026-10-05T08:00:00.000Z', cwd: '/home/u/p' }),
    );
    await runLoad({ fleet: fleet2, out: out2 });
  });

  it('keeps no planted key, nor its first or last 24 characters, anywhere under OUT', async () => {
    const keys = [...PLANTED.map(([key]) => key), BAD_LINE_KEY];
    const needles = [...keys, ...keys.map((k) => k.slice(0, 24)), ...keys.map((k) => k.slice(-24)), V8_KEY.slice(0, 10)];
    expect(await whereFound(out2, needles)).toEqual([]);
  });

  it('lists each planted key in secrets with the column that held it', async () => {
    const rows = await queryOut(out2, 'select distinct column_name, kind, fingerprint from secrets');
    for (const [key, column, kind] of PLANTED) expect(rows, column).toContainEqual([column, kind, secretFingerprint(key)]);
  });

  it('builds the derived model rows from redacted models', async () => {
    const rows = await queryOut(
      out2,
      `select text from int_derived_events where kind = 'model' and source_file = '${MESSAGES}' order by source_line`,
    );
    expect(rows.flat()).toContain(`model: claude-sonnet-4-5 -> ${m(FAKE.anthropic, 'anthropic')} provider=anthropic`);
  });

  it('still joins and groups the rows of a session whose id holds a key', async () => {
    const sid = m(FAKE.googleOauth, 'google');
    expect(await queryOut(out2, `select count_rows, project_path from sessions where session_id = '${sid}'`)).toEqual([
      ['2', '/home/u/ops'],
    ]);
    expect(
      await queryOut(out2, `select count(*) from secrets where session_id = '${sid}' and column_name = 'session_id'`),
    ).toEqual([['2']]);
  });

  it('quotes a bad line up to the last character before a token, never part of a key', async () => {
    expect(
      await queryOut(
        out2,
        `select source_line, text from raw_events where kind = 'parser' and source_file = '${HOOKS}' order by all`,
      ),
    ).toEqual([
      ['8', `parser: ${HOOKS} line 8: not JSON: "..." (${badStart.length} characters)`],
      ['9', `parser: ${HOOKS} line 9: not JSON: "${'x'.repeat(40)} ..." (${badCross.length} characters)`],
    ]);
  });

  it('keeps no part of a key from the message of JSON.parse', async () => {
    const [[text]] = await queryOut(out2, "select text from raw_events where kind = 'parser' and source_file like '%bad01.json'");
    expect(text).toBe(
      `parser: home/u/.cline/data/sessions/1760000900000_bad01/1760000900000_bad01.json: manifest not read: ` +
        `Unexpected token '${V8_KEY[0]}', ..." "model": "... is not valid JSON`,
    );
  });

  it('keeps a key in a folder name in source_file and files, as RELIABILITY.md says (paths are not redacted)', async () => {
    expect(await queryOut(out2, `select count(*) from files where source_file like '%${PATH_KEY}%'`)).toEqual([['1']]);
    expect(await queryOut(out2, `select distinct session_id from raw_events where source_file like '%${PATH_KEY}%'`)).toEqual([
      [m(PATH_KEY, 'github')],
    ]);
    const reliability = fs.readFileSync(path.join(REPO, 'docs', 'RELIABILITY.md'), 'utf8');
    expect(reliability).toContain('`host`, `home`, `user`, `client` and `source_file` are not redacted');
  });

  it('reads a secrets file line written before column_name existed as a secret of text', async () => {
    const file = listFiles(out2).find((f) => /^_secrets\..+\.jsonl$/.test(path.basename(f)))!;
    const old = {
      host: 'lnx-u01',
      store: 'hooks-log',
      home: 'home/u',
      client: 'cline',
      source_file: HOOKS,
      source_line: 1,
      source_seq: 0,
    };
    fs.appendFileSync(
      file,
      `${JSON.stringify({ ...old, session_id: null, timestamp_ms: null, row_kind: 'hook:tool_call', kind: 'github', fingerprint: '0123456789ab' })}\n`,
    );
    await buildWarehouse(out2);
    expect(await queryOut(out2, "select column_name from secrets where fingerprint = '0123456789ab'")).toEqual([['text']]);
  });
});
