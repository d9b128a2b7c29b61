/**
 * write/redact-row.ts: every content column of a row is redacted with the markers of the text, the
 * same value the same way in every row, and each secret gives one `_secrets.<gen>.jsonl` record naming its
 * column; paths of the evidence are kept as found.
 */
import { describe, expect, it } from 'vitest';
import { rowFor } from '../../src/readers/common/rows.js';
import { secretFingerprint } from '../../src/write/redact.js';
import { REDACTED_COLUMNS, RowRedactor, type SecretRecord } from '../../src/write/redact-row.js';
import { FAKE } from '../helpers/fake-secrets.js';
import { makeSource } from '../helpers/source.js';

const m = (secret: string, kind: string) => `[REDACTED:${kind}:${secretFingerprint(secret)}]`;
const source = makeSource({
  store: 'hooks-log',
  imageRoot: '/img',
  root: `/img/home/${FAKE.slack}/.cline/data`,
  home: `home/${FAKE.slack}`,
  files: [],
});
const file = `/img/home/${FAKE.slack}/.cline/data/logs/hooks.jsonl`;

function row(line: number) {
  return rowFor(source, file, {
    source_line: line,
    turn_type: 'tool_use',
    kind: `hook:${FAKE.awsId}`,
    session_id: FAKE.googleOauth,
    project_path: `/home/u/${FAKE.gitlab}`,
    git_branch: `feature/${FAKE.github}`,
    model: FAKE.anthropic,
    provider: FAKE.openrouter,
    tool_name: FAKE.google,
    tool_use_id: FAKE.openaiLegacy,
    text: `run ${FAKE.openai}`,
    permission_mode: FAKE.githubFine,
    sync_target: `s3 bucket ${FAKE.jwt} object sessions/u/s1/messages.json`,
    session_origin: FAKE.awsId,
    imported_from: FAKE.anthropic,
    setting_name: `mcpServers.${FAKE.slack}.autoApprove`,
    setting_value: FAKE.gitlab,
    parent_session_id: FAKE.googleOauth,
  });
}

describe('RowRedactor', () => {
  it('redacts every content column and records each secret with its column and the redacted session', () => {
    const redactor = new RowRedactor();
    const lines: string[] = [];
    const r = row(1);
    expect(redactor.redactRow(r, lines)).toBe(16);
    expect(r).toMatchObject({
      kind: `hook:${m(FAKE.awsId, 'aws_access_key_id')}`,
      session_id: m(FAKE.googleOauth, 'google'),
      project_path: `/home/u/${m(FAKE.gitlab, 'gitlab')}`,
      git_branch: `feature/${m(FAKE.github, 'github')}`,
      model: m(FAKE.anthropic, 'anthropic'),
      provider: m(FAKE.openrouter, 'openrouter'),
      tool_name: m(FAKE.google, 'google'),
      tool_use_id: m(FAKE.openaiLegacy, 'openai'),
      text: `run ${m(FAKE.openai, 'openai')}`,
      permission_mode: m(FAKE.githubFine, 'github'),
      sync_target: `s3 bucket ${m(FAKE.jwt, 'jwt')} object sessions/u/s1/messages.json`,
      session_origin: m(FAKE.awsId, 'aws_access_key_id'),
      imported_from: m(FAKE.anthropic, 'anthropic'),
      setting_name: `mcpServers.${m(FAKE.slack, 'slack')}.autoApprove`,
      setting_value: m(FAKE.gitlab, 'gitlab'),
      parent_session_id: m(FAKE.googleOauth, 'google'),
    });
    const records = lines.map((l) => JSON.parse(l) as SecretRecord);
    expect(records.map((s) => s.column_name).sort()).toEqual([...REDACTED_COLUMNS].sort());
    expect(new Set(records.map((s) => s.session_id))).toEqual(new Set([m(FAKE.googleOauth, 'google')]));
    expect(new Set(records.map((s) => s.row_kind))).toEqual(new Set([`hook:${m(FAKE.awsId, 'aws_access_key_id')}`]));
    expect(lines.join('')).not.toContain(FAKE.googleOauth);
    expect(lines.join('')).not.toContain(FAKE.awsId);
  });

  it('redacts the same value the same way in every row (joins on session_id still work)', () => {
    const redactor = new RowRedactor();
    const a = row(1);
    const b = row(2);
    redactor.redactRow(a, []);
    redactor.redactRow(b, []);
    expect(b.session_id).toBe(a.session_id);
    expect(new RowRedactor().redactRow(row(3), [])).toBe(16);
  });

  it('keeps host, home, client and source_file as found: paths of the evidence are not redacted', () => {
    const r = row(1);
    new RowRedactor().redactRow(r, []);
    expect(r.home).toBe(`home/${FAKE.slack}`);
    expect(r.source_file).toBe(`home/${FAKE.slack}/.cline/data/logs/hooks.jsonl`);
  });

  it('leaves a row without secrets as it was and records nothing', () => {
    const r = rowFor(source, file, {
      turn_type: 'user',
      kind: 'hook:prompt_submit',
      session_id: '1760000000000_k3x9q',
      model: 'claude-sonnet-4-5',
      text: 'fix tests',
    });
    const before = { ...r };
    const lines: string[] = [];
    expect(new RowRedactor().redactRow(r, lines)).toBe(0);
    expect(r).toEqual(before);
    expect(lines).toEqual([]);
  });
});
