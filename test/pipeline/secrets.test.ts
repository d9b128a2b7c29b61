/**
 * Secrets through a whole load (runLoad on a temporary copy of fixtures/fleet/lnx-u01 with fake keys
 * injected into a transcript and a credential file added): texts hold markers, the `secrets` table holds
 * where each key was and its fingerprint, no file under OUT holds a key, and `--keep-secrets` keeps them.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad, type RunRecord } from '../../pipeline/load.js';
import { secretFingerprint } from '../../pipeline/redact.js';
import { fixture, listFiles } from '../helpers/source.js';
import { FAKE } from '../helpers/fake-secrets.js';

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
  fs.copyFileSync(fixture('credentials', 'img', 'home', 'u', '.cline', 'data', 'secrets.json'), path.join(host, 'home/u/.cline/data/secrets.json'));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function query(sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
    access_mode: 'READ_ONLY',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * Files under OUT whose raw bytes contain `needle`. This sees the plain-text files (`_secrets.<gen>.jsonl`,
 * `_files.<gen>.jsonl`, manifests, state); Parquet pages are zstd-compressed, so rowsContaining reads them decompressed.
 */
function filesContaining(needle: string): string[] {
  return listFiles(out).filter((f) => fs.readFileSync(f).includes(needle)).map((f) => path.relative(out, f));
}

/** Rows of any Parquet part or any table whose text contains `needle` (decompressed: the real check). */
async function rowsContaining(needle: string): Promise<number> {
  const like = `'%${needle}%'`;
  const parquet = path.join(out, 'parquet', 'events', '*', '*', '*.parquet');
  const [[n]] = await query(
    `select (select count(*) from read_parquet('${parquet}') as t where cast(t as varchar) like ${like})
          + (select count(*) from files as t where cast(t as varchar) like ${like})
          + (select count(*) from secrets as t where cast(t as varchar) like ${like})
          + (select count(*) from sessions as t where cast(t as varchar) like ${like})
          + (select count(*) from duplicates as t where cast(t as varchar) like ${like})`,
  );
  return Number(n);
}

describe('a load redacts secrets by default', () => {
  let run: RunRecord;
  beforeAll(async () => {
    run = await runLoad({ fleet, out });
  }, 60_000);

  it('replaces each key by its marker in the texts', async () => {
    const rows = await query(`select source_line, source_seq, kind, text from raw_events where source_file like '%${SID}.messages.json' and text like '%[REDACTED:%' order by all`);
    const m = (secret: string, kind: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
    expect(rows).toEqual([
      ['2', 1, 'tool_use', expect.stringContaining(`Authorization: Bearer ${m(FAKE.bearer, 'bearer')}" https://api.example.com`)],
      ['3', 0, 'tool_result', `3 passed\nOPENAI_API_KEY=${m(FAKE.openai, 'openai')}\nAWS_ACCESS_KEY_ID=${m(FAKE.awsId, 'aws_access_key_id')}`],
      ['6', 0, 'text', `All 3 tests pass. I used ${m(FAKE.openai, 'openai')} and ${m(FAKE.github, 'github')}.`],
    ]);
    expect(run.secrets_redacted).toBe(true);
    expect(run.secrets_found).toBe(5);
  });

  it('lists every hit in the secrets table with its place and fingerprint', async () => {
    expect(await query('select host, store, session_id, source_file, source_line, source_seq, row_kind, kind, fingerprint from secrets order by source_line, kind')).toEqual([
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
    for (const [secret] of INJECTED) {
      expect(filesContaining(secret), secret.slice(0, 6)).toEqual([]);
      expect(await rowsContaining(secret)).toBe(0);
    }
  });

  it('flags the credential file in files and lists its key names only', async () => {
    expect(await query("select store, source_file, holds_credentials from files where holds_credentials order by all")).toEqual([
      ['credentials', 'home/u/.cline/data/secrets.json', true],
      ['settings', 'home/u/.cline/data/settings/cline_mcp_settings.json', true],
    ]);
    expect(await query("select turn_type, text from events where kind = 'credential_file'")).toEqual([
      ['system', 'credential file: .cline/data/secrets.json keys=apiKey,openRouterApiKey,awsAccessKey,awsSecretKey,clineAccountId'],
    ]);
    expect(filesContaining('FAKE-VALUE')).toEqual([]);
    expect(await rowsContaining('FAKE-VALUE')).toBe(0);
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
    for (const [secret] of INJECTED) expect(await rowsContaining(secret), secret.slice(0, 6)).toBeGreaterThan(0);
    expect(await query("select count(*) from raw_events where text like '%[REDACTED:%'")).toEqual([['0']]);
    // key values of credential files are never loaded, whatever the setting
    expect(await rowsContaining('FAKE-VALUE')).toBe(0);
  }, 60_000);

  it('a later default load redacts again (the setting is part of the loader version)', async () => {
    const run = await runLoad({ fleet, out });
    expect(run.is_full_load).toBe(true);
    expect(run.secrets_found).toBe(5);
    for (const [secret] of INJECTED) expect(await rowsContaining(secret)).toBe(0);
    expect(await query('select count(*) from secrets')).toEqual([['5']]);
    const again = await runLoad({ fleet, out });
    expect([again.is_full_load, again.partitions_written]).toEqual([false, 0]);
  }, 60_000);
});
