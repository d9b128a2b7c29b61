/**
 * `clinetrail mcp` on the homes the released Cline CLIs wrote (fixtures/real-producer, one host per
 * generation): every session the driver completed has a timeline through session_timeline in which
 * each prompt typed and each command run (facts.json, the driver's own record) appears, in time order.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedSessions, copyHome, corpora } from '../helpers/real-corpus.js';
import { REPO } from '../helpers/source.js';
import { answerFields, CLI, connectClient, tempDir, toolErrorOf } from './harness.js';

const CORPORA = corpora();
let tmp = '';
let client: Client | undefined;

beforeAll(async () => {
  if (CORPORA.length === 0) return;
  tmp = tempDir('clinetrail-mcp-real-');
  const fleet = path.join(tmp, 'fleet');
  for (const c of CORPORA) copyHome(c, path.join(fleet, c.name));
  const out = path.join(tmp, 'out');
  const load = spawnSync(process.execPath, [CLI, 'load', '--fleet', fleet, '--out', out, '--quiet'], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 240_000,
  });
  if (load.status !== 0) throw new Error(`load failed: ${load.stderr}`);
  ({ client } = await connectClient(out));
});

afterAll(async () => {
  await client?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('clinetrail mcp on the real CLIs’ homes', () => {
  it.skipIf(CORPORA.length === 0)(
    'each completed session reads back through session_timeline with its prompts and commands',
    async () => {
      let sessions = 0;
      for (const corpus of CORPORA) {
        for (const s of completedSessions(corpus.facts)) {
          const result = await client!.callTool({
            name: 'session_timeline',
            arguments: { host: corpus.name, session_id: s.observedSessionId, limit: 5_000, max_cell_chars: 100_000 },
          });
          const where = `${corpus.name} ${s.id}`;
          expect(toolErrorOf(result), where).toBeNull();
          const { events } = answerFields<{ events: Array<{ timestamp_utc: string | null; text: string | null }> }>(result);
          const texts = events.map((e) => e.text ?? '').join('\n');
          for (const prompt of s.prompts) expect(texts, where).toContain(prompt.text);
          for (const command of s.commands) expect(texts, where).toContain(command.command);
          const dated = events.map((e) => e.timestamp_utc).filter((t): t is string => t !== null);
          expect([...dated].sort(), where).toEqual(dated);
          sessions += 1;
        }
      }
      expect(sessions).toBeGreaterThan(5);
    },
  );
});
