/**
 * End to end on the real-producer corpus: the homes the released Cline CLIs (1.0.x, 2.x, 3.x) wrote when
 * corpus/drive.ts drove them against a scripted model (fixtures/real-producer), loaded together as one
 * fleet, one host per generation. Every expectation comes from the driver's record, facts.json: what was
 * typed, which commands ran and how they exited, the usage figures the mock model reported, the models
 * it was asked for. The README's hunt queries are run as printed there.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { setFleetVariables } from '../../src/warehouse/build.js';
import { captureCommandLine } from '../helpers/command-line.js';
import { completedSessions, copyHome, corpora, type Corpus, type CorpusSession } from '../helpers/real-corpus.js';

const CORPORA = corpora();
let tmp = '';
let out = '';
let conn: Awaited<ReturnType<DuckDBInstance['connect']>>;

async function rows(sql: string, ...params: string[]): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

/** The host a generation is loaded as: its corpus folder name. */
const hostOf = (c: Corpus): string => c.name;

/**
 * The input tokens Cline counts for a request: the prompt tokens, except where its provider handler
 * subtracts the cache reads (the legacy engine's openai-native handler: `inputTokens: prompt_tokens -
 * cached_tokens`, and reports the cached ones apart).
 */
function expectedTokensIn(c: Corpus, s: CorpusSession): number {
  const u = s.usageTotals;
  return c.facts.generation !== 'sdk' && s.provider === 'openai-native' ? u.promptTokens - u.cachedTokens : u.promptTokens;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-real-'));
  const fleet = path.join(tmp, 'fleet');
  for (const c of CORPORA) copyHome(c, path.join(fleet, hostOf(c)));
  out = path.join(tmp, 'out');
  const load = await captureCommandLine(runCommandLine, ['load', '--fleet', fleet, '--out', out]);
  expect(load.code, load.stderr).toBe(0);
  const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
    access_mode: 'READ_ONLY',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  conn = await instance.connect();
  await setFleetVariables(conn, out);
});

afterAll(() => {
  conn?.closeSync();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the real-producer corpus, every generation loaded as one fleet', () => {
  it('holds the three generations, and loads with no parser row', async () => {
    expect(CORPORA.map((c) => c.facts.generation).sort()).toEqual(['go-core', 'legacy-node', 'sdk']);
    expect(await rows(`select host, source_file, text from raw_events where kind = 'parser'`)).toEqual([]);
  });

  describe.each(CORPORA.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const done = completedSessions(c.facts);

    it('lists every file of the home in `files`, each once, with its SHA-256', async () => {
      const image = path.join(tmp, 'fleet', hostOf(c));
      const onDisk = (fs.readdirSync(image, { recursive: true }) as string[])
        .map((f) => f.split(path.sep).join('/'))
        .filter((f) => fs.statSync(path.join(image, f)).isFile())
        .sort();
      expect(onDisk.length).toBeGreaterThan(10);
      const listed = await rows(`select source_file, sha256 from files where host = $1 order by source_file`, hostOf(c));
      expect(listed.map((r) => r.source_file)).toEqual(onDisk);
      for (const r of listed) {
        const bytes = fs.readFileSync(path.join(image, r.source_file as string));
        expect(r.sha256, r.source_file as string).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
    });

    it('gives each session the prompts as typed, in order, and counts them in sessions.count_user', async () => {
      expect(done.length).toBeGreaterThanOrEqual(5);
      for (const s of done) {
        const users = await rows(
          `select text from events where host = $1 and session_id = $2 and turn_type = 'user'
           order by timestamp_utc, source_file, source_line, source_seq`,
          hostOf(c),
          s.observedSessionId!,
        );
        expect(
          users.map((r) => r.text),
          s.id,
        ).toEqual(s.prompts.map((p) => p.text));
        const [session] = await rows(
          `select count_user::INTEGER as n from sessions where host = $1 and session_id = $2`,
          hostOf(c),
          s.observedSessionId!,
        );
        expect(session.n, s.id).toBe(s.prompts.length);
      }
    });

    it("sums each session's tokens once: sum(tokens_in) and sum(tokens_out) over events equal the model's figures", async () => {
      for (const s of done) {
        const [sums] = await rows(
          `select sum(tokens_in)::INTEGER as tokens_in, sum(tokens_out)::INTEGER as tokens_out
           from events where host = $1 and session_id = $2`,
          hostOf(c),
          s.observedSessionId!,
        );
        expect(sums, s.id).toEqual({ tokens_in: expectedTokensIn(c, s), tokens_out: s.usageTotals.completionTokens });
      }
    });

    // the legacy engines' own totals (taskHistory.json) are short of their requests in 1.x: the tokens test above holds them
    if (c.facts.generation === 'sdk')
      it("sums each session's cost once: sum(cost_usd) equals the total the manifest records (metadata.usage.totalCost)", async () => {
        for (const s of done) {
          const manifest = JSON.parse(
            fs.readFileSync(
              path.join(c.home, '.cline/data/sessions', s.observedSessionId!, `${s.observedSessionId}.json`),
              'utf8',
            ),
          ) as { metadata: { usage: { totalCost: number } } };
          const [sums] = await rows(
            `select coalesce(sum(cost_usd), 0)::DOUBLE as usd from events where host = $1 and session_id = $2`,
            hostOf(c),
            s.observedSessionId!,
          );
          expect(sums.usd as number, s.id).toBeCloseTo(manifest.metadata.usage.totalCost, 12);
        }
      });

    // `cline history delete` (3.x): its transcript and manifest are gone; the hub's event log keeps it
    if (c.facts.sessions.some((s) => s.deleted))
      it('brings a deleted session back: its prompts as typed in events, and a sessions row without a transcript', async () => {
        for (const s of c.facts.sessions.filter((x) => x.deleted)) {
          const users = await rows(
            `select text from events where host = $1 and session_id = $2 and turn_type = 'user' order by timestamp_utc, source_line, source_seq`,
            hostOf(c),
            s.observedSessionId!,
          );
          expect(
            users.map((r) => r.text),
            s.id,
          ).toEqual(s.prompts.map((p) => p.text));
          const [session] = await rows(
            `select has_transcript, count_user::INTEGER as n, models from sessions where host = $1 and session_id = $2`,
            hostOf(c),
            s.observedSessionId!,
          );
          expect(session, s.id).toEqual({ has_transcript: false, n: s.prompts.length, models: [s.model] });
        }
      });

    it('lists the commands each session ran (README: every command Cline ran)', async () => {
      const listed = await rows(
        `select session_id, text as command from events
         where turn_type = 'tool_use' and tool_name in ('execute_command', 'bash', 'run_commands') and host = $1`,
        hostOf(c),
      );
      for (const s of done) {
        const ran = listed.filter((r) => r.session_id === s.observedSessionId).map((r) => r.command);
        expect(ran, s.id).toEqual(s.commands.map((x) => x.command));
      }
    });

    // issue 27: a legacy task's results are tool_result rows, one per result, wherever the task keeps them
    if (c.facts.generation !== 'sdk')
      it('gives each legacy call one tool_result row: the message where the task records one, else the request copy', async () => {
        const calls = await rows(
          `select e.session_id, e.tool_use_id, e.tool_name,
             (select count(*)::INTEGER from events r where r.host = e.host and r.source_file = e.source_file
                and r.turn_type = 'tool_result' and r.tool_use_id = e.tool_use_id) as results,
             (select count(*)::INTEGER from events r where r.host = e.host and r.source_file = e.source_file
                and r.turn_type = 'tool_result' and r.kind <> 'request:tool_result' and r.tool_use_id = e.tool_use_id) as messages,
             (select count(*)::INTEGER from events r where r.host = e.host and r.source_file = e.source_file
                and r.kind = 'request:tool_result' and r.tool_use_id = e.tool_use_id) as request_copies,
             (select count(*)::INTEGER from duplicates d join events k on k.row_id = d.kept_row_id
                where d.rule = 'legacy_result' and d.host = e.host and k.source_file = e.source_file
                and k.tool_use_id = e.tool_use_id) as dropped
           from events e
           where e.host = $1 and e.turn_type = 'tool_use' and e.store = 'cline-tasks'
             and e.tool_name in ('execute_command', 'readFile', 'newFileCreated', 'use_mcp_tool', 'lookup_ticket')`,
          hostOf(c),
        );
        const done = new Set(completedSessions(c.facts).map((s) => s.observedSessionId));
        const checked = calls.filter((r) => done.has(r.session_id as string));
        expect(checked.length).toBeGreaterThan(20);
        expect(checked.some((r) => (r.messages as number) > 0)).toBe(true);
        for (const r of checked) {
          expect(r.results, `${r.session_id} ${r.tool_name} ${r.tool_use_id}`).toBe(1);
          // a command's output is a message of the task: the request's copy is dropped and listed in duplicates; a
          // command with no output, a file read, an MCP answer the task holds nowhere else keep the request's copy
          const copy = (r.messages as number) > 0 ? [0, 1] : [1, 0];
          expect([r.request_copies, r.dropped], `${r.tool_name} ${r.tool_use_id}`).toEqual(copy);
        }
      });

    it('flags the result of a failed command as an error where the generation records the exit code', async () => {
      const flagged = await rows(
        `select session_id, tool_name from events where turn_type = 'tool_result' and is_error and host = $1`,
        hostOf(c),
      );
      // 3.x records a call the user denied as a failed result too (the driver's denied command)
      const failing = done.filter(
        (s) =>
          s.commands.some((x) => x.expectedExitCode !== 0) ||
          (c.facts.generation === 'sdk' && (s as CorpusSession & { denied?: boolean }).denied === true),
      );
      expect(failing.length).toBeGreaterThan(0);
      // The 1.0.x CLI reports every command to the model as `Command executed.`, whatever its exit code:
      // its records cannot tell a failed command, so nothing of it is flagged.
      const expected = c.facts.generation === 'go-core' ? [] : failing.map((s) => s.observedSessionId);
      expect(flagged.filter((r) => done.some((s) => s.observedSessionId === r.session_id)).map((r) => r.session_id)).toEqual(
        expected,
      );
      expect(flagged.every((r) => r.tool_name !== null)).toBe(true);
    });

    it('gives each session permission mode rows that start in the mode of its first prompt and pass through every prompt mode', async () => {
      for (const s of done) {
        const changes = await rows(
          `select text from events where host = $1 and session_id = $2 and kind = 'permission' and text like 'permission mode: %'
           order by timestamp_utc, source_file, source_line, source_seq`,
          hostOf(c),
          s.observedSessionId!,
        );
        // `permission mode: act`, then `permission mode: act -> plan` per change: the modes in force, in order
        const modes = changes.map((r) => (r.text as string).replace('permission mode: ', '').split(' -> ').at(-1));
        const typed = s.prompts.map((p) => p.mode).filter((m, i, all) => i === 0 || m !== all[i - 1]);
        expect(modes[0], s.id).toBe(typed[0]);
        if (c.facts.generation === 'sdk') expect(modes, s.id).toEqual(typed);
        else {
          // the legacy engine records the mode of each request; under -y it leaves plan mode by itself
          let at = 0;
          for (const m of typed) {
            const found = modes.indexOf(m, at);
            expect(found, `${s.id}: ${modes.join(' ')} holds ${typed.join(' ')} in order`).toBeGreaterThanOrEqual(0);
            at = found + 1;
          }
        }
      }
    });

    it('names each session by the models the CLI asked for, every model with its provider (no NULL twin)', async () => {
      for (const s of done) {
        const asked = [...new Set(s.mockRequests.map((r) => r.model).filter((m): m is string => m !== null))].sort();
        const [session] = await rows(
          `select models from sessions where host = $1 and session_id = $2`,
          hostOf(c),
          s.observedSessionId!,
        );
        expect(session.models, s.id).toEqual(asked);
      }
      // README: sessions per model and provider
      const perModel = await rows(
        `select model, provider, count(distinct host || '/' || session_id)::INTEGER as sessions
         from events where model is not null and host = $1 group by all order by all`,
        hostOf(c),
      );
      expect(perModel.filter((r) => r.provider === null)).toEqual([]);
      const models = new Set(perModel.map((r) => r.model));
      expect(perModel.length).toBe(models.size);
    });
  });
});
