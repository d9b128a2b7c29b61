/**
 * Redaction holds in every answer of `clinetrail mcp`: a host whose session (the demo fleet's 0042
 * SDK session, copied) has an API key planted in a prompt and a tool result is loaded into a temporary
 * OUT; the key never appears in a tool result, a tool error that quotes the value, the session
 * timeline, a hunt's findings or the server's stderr, and its marker does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE } from '../helpers/fake-secrets.js';
import { fixture, REPO } from '../helpers/source.js';
import { answerFields, CLI, connectClient, tempDir, toolErrorOf } from './harness.js';

const SID = '1760300000000_d3v0p';
let tmp = '';
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
/** Every answer's JSON, to search for the key. */
const seen: string[] = [];

beforeAll(async () => {
  tmp = tempDir('clinetrail-mcp-redact-');
  const session = path.join(tmp, 'fleet', 'leaky', 'home', 'dev', '.cline', 'data', 'sessions', SID);
  fs.cpSync(fixture('fleet', '0042', 'home', 'dev', '.cline', 'data', 'sessions', SID), session, { recursive: true });
  const file = path.join(session, `${SID}.messages.json`);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  doc.messages[0].content[0].text = `clean up the docker images; export OPENAI_API_KEY=${FAKE.openai}`;
  doc.messages[2].content[0].content = `Deleted Images: 14\nkey in env: ${FAKE.openai}`;
  fs.writeFileSync(file, JSON.stringify(doc));
  const out = path.join(tmp, 'out');
  const load = spawnSync(process.execPath, [CLI, 'load', '--fleet', path.join(tmp, 'fleet'), '--out', out, '--quiet'], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
  });
  if (load.status !== 0) throw new Error(`load failed: ${load.stderr}`);
  ({ client, transport } = await connectClient(out));
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
});

afterAll(async () => {
  await client?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  seen.push(JSON.stringify(result));
  return result;
}

describe('clinetrail mcp: redaction holds in every answer', () => {
  it('rows, errors that quote values, the timeline and stderr show the marker, never the key', async () => {
    const rows = await call('query', {
      sql: "select text from events where text like '%OPENAI_API_KEY%' or text like 'Deleted Images%' order by all",
      max_cell_chars: 100_000,
    });
    const texts = answerFields<{ rows: string[][] }>(rows).rows.map((r) => r[0]);
    expect(texts).toHaveLength(2);
    for (const text of texts) expect(text).toMatch(/\[REDACTED:[a-z0-9_-]+:[0-9a-f]+\]/i);

    // DuckDB quotes the value it could not convert: the value is the redacted text
    const failed = await call('query', { sql: "select text::integer from events where text like '%REDACTED%'" });
    expect(toolErrorOf(failed)?.kind).toBe('sql_error');
    expect(JSON.stringify(failed)).toMatch(/REDACTED/);

    const secrets = await call('query', { sql: 'select * from secrets' });
    expect(answerFields<{ row_count: number }>(secrets).row_count).toBeGreaterThan(0);
    await call('session_timeline', { host: 'leaky', session_id: SID, max_cell_chars: 100_000 });
    await call('query', { sql: 'select * from raw_events', max_rows: 10_000, max_cell_chars: 100_000 });
    await call('list_tables', {});
    // the hunt of prompts holding a secret finds the planted prompt: its summary quotes the marker
    const hunted = await call('run_hunt', { ids: ['secret-in-prompt', 'data-exfiltration'] });
    const summaries = answerFields<{ findings: Array<{ summary: string }> }>(hunted).findings.map((f) => f.summary);
    expect(summaries.some((s) => /clean up the docker images.*\[REDACTED:[a-z0-9_-]+:[0-9a-f]+\]/i.test(s))).toBe(true);
    await call('list_hunts', {});

    const all = seen.join('\n');
    expect(all).toMatch(/REDACTED/);
    // the key, and any long piece of it
    for (let i = 0; i + 24 <= FAKE.openai.length; i += 12) expect(all).not.toContain(FAKE.openai.slice(i, i + 24));
    expect(stderr).not.toContain(FAKE.openai.slice(8, 32));
  });
});
