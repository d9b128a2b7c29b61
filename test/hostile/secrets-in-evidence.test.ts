/**
 * Secrets planted the ways issue 9 point 7 found redaction missing them, loaded through the real CLI:
 * each is kept out of every file under OUT and every Parquet row, table and view (searched decompressed),
 * and listed in `secrets`. The detectors one by one are in test/write/redact.test.ts; the columns and
 * quotes in test/write/secrets.test.ts.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../src/write/redact.js';
import { FAKE, FAKE_MISSED } from '../helpers/fake-secrets.js';
import { fixture } from '../helpers/source.js';
import { queryOut, whereFound } from '../helpers/warehouse-search.js';
import { assertBuilt, describeRun, expectControlAsAlone, load, makeControlHost, workDir, type CliRun } from './harness.js';

const work = workDir('secrets');
const controlFleet = path.join(work, 'control-fleet');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const SID = '1760000000000_k3x9q';
const DATA = 'home/u/.cline/data';
const MESSAGES = `${DATA}/sessions/${SID}/${SID}.messages.json`;
const PEM_CUT = FAKE.privateKey.split('\n').slice(0, 4);

/** Tool outputs as a command printed them: [what, the output text, the value that must not survive]. */
const OUTPUTS: Array<[string, string, string]> = [
  [
    'a password that starts with a placeholder word',
    `DB_PASSWORD=${FAKE_MISSED.passwordWord}\nPORT=5432`,
    FAKE_MISSED.passwordWord,
  ],
  ['another one, YAML', `password: ${FAKE_MISSED.testingWord}\nuser: bob`, FAKE_MISSED.testingWord],
  ['another one, on a command line', `api_key=${FAKE_MISSED.secretWord} ./run.sh`, FAKE_MISSED.secretWord],
  ['an AWS secret key starting with /', `aws_secret_access_key = ${FAKE_MISSED.awsSecretSlash}\n`, FAKE_MISSED.awsSecretSlash],
  // the part after the quote: the redaction before stopped at the backslash and kept it
  [
    'a password with an escaped quote in a JSON config',
    `{"password": ${JSON.stringify(FAKE_MISSED.quotedPassword)}, "user": "bob"}`,
    FAKE_MISSED.quotedPassword.split('"')[1],
  ],
  ['a cut PEM with JSON-escaped CR LF', `{"output":"${PEM_CUT.join('\\r\\n')}\\r\\n[truncated]"}`, PEM_CUT[2]],
  [
    'a double-encoded sk\\u002dant key',
    JSON.stringify({ k: FAKE.anthropic.replace('-', '\\u002d') }),
    FAKE.anthropic.slice(8, 40),
  ],
];
/** A key given as the model of the session (its derived `model:` rows are built in SQL). */
const MODEL_KEY = FAKE.openrouter;
/** A key in a bad hooks.jsonl line, across the 77th character its `parser:` row quotes. */
const BAD_LINE_KEY = FAKE.github;

let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  // the control host linked, not copied, so its files' mtimes compare with its load alone
  mkdirSync(fleet, { recursive: true });
  symlinkSync(makeControlHost(controlFleet), path.join(fleet, 'control'));
  const host = path.join(fleet, 'leaky');
  cpSync(fixture('fleet', 'lnx-u01'), host, { recursive: true });
  const file = path.join(host, MESSAGES);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  // one tool result per case, in the messages that hold tool results and texts
  doc.messages[2].content[0].content = OUTPUTS.map(([, text]) => text).join('\n---\n');
  doc.messages[3].modelInfo.id = MODEL_KEY;
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const manifest = path.join(host, DATA, 'sessions', SID, `${SID}.json`);
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), model: MODEL_KEY }, null, 2));
  const hooks = path.join(host, DATA, 'logs', 'hooks.jsonl');
  writeFileSync(hooks, `${readFileSync(hooks, 'utf8')}${'y'.repeat(60)} ${BAD_LINE_KEY} not json\n`);
  run = await load(fleet, out, { timeoutMs: 300_000 });
}, 320_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('secrets planted as issue 9 point 7 found them missed', () => {
  it('the load exits 0 and the control host loads as alone', async () => {
    expect(run.code, describeRun(run)).toBe(0);
    await expectControlAsAlone(out, controlFleet);
  });

  it.each(OUTPUTS.map(([what, , value]) => [what, value] as const))(
    '%s: not in any file, Parquet row, table or view',
    async (_what, value) => {
      expect(await whereFound(out, [value])).toEqual([]);
    },
  );

  it('a key given as the model: neither it nor its first 24 characters in any row, derived rows included', async () => {
    expect(await whereFound(out, [MODEL_KEY, MODEL_KEY.slice(0, 24)])).toEqual([]);
    const marker = `[REDACTED:openrouter:${secretFingerprint(MODEL_KEY)}]`;
    const derived = await queryOut(
      out,
      `select count(*) from int_derived_events where host = 'leaky' and text like '%${marker}%'`,
    );
    expect(Number(derived[0][0])).toBeGreaterThan(0);
  });

  it('a key across the quote of a bad line: no part of it that could be a token prefix survives', async () => {
    expect(await whereFound(out, [BAD_LINE_KEY, BAD_LINE_KEY.slice(0, 8)])).toEqual([]);
    const quoted = await queryOut(
      out,
      `select count(*) from raw_events where host = 'leaky' and kind = 'parser' and source_file like '%hooks.jsonl'`,
    );
    expect(quoted).toEqual([['1']]);
  });

  it('lists every planted secret in secrets, none of them by value', async () => {
    const kinds = await queryOut(out, `select kind, count(*) from secrets where host = 'leaky' group by all order by all`);
    const count = (kind: string) => Number(kinds.find((k) => k[0] === kind)?.[1] ?? 0);
    expect(count('assignment')).toBeGreaterThanOrEqual(4);
    expect(count('aws_secret_key')).toBeGreaterThanOrEqual(1);
    expect(count('private_key')).toBeGreaterThanOrEqual(1);
    expect(count('anthropic')).toBeGreaterThanOrEqual(1);
    expect(count('openrouter')).toBeGreaterThanOrEqual(2);
  });
});
