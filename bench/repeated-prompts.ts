/**
 * The duplicate-rule case (issue 9 point 3): one host image whose CLI sessions repeat one prompt, and a
 * prompt history of the same prompt, so every secondary row has as many candidate twins as there are
 * prompts. Used by the hostile suite (test/hostile/duplicate-rule.test.ts) and by `make bench`, which
 * loads it beside the same layout with distinct prompts.
 *
 * Layout under the image root, in the real shapes (store specification; fixtures/sdk-sessions,
 * fixtures/input-history):
 *   home/u/.cline/data/sessions/<sid>/<sid>.json           manifest
 *   home/u/.cline/data/sessions/<sid>/<sid>.messages.json  `promptsPerSession` user prompts, one a minute,
 *                                                          each followed by an assistant reply 5 s later
 *   home/u/.cline/data/cache/user_input_history.jsonl      `historyLines` lines, oldest first, each stamped
 *                                                          with the last rewrite's ts (1 s after the newest prompt)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RepeatedPromptsOptions {
  sessions: number;
  promptsPerSession: number;
  historyLines: number;
  /** false: every prompt and history line is `continue`; true: every prompt is its own text. */
  distinct: boolean;
}

export interface RepeatedPromptsHost {
  /** Transcript user prompts written. */
  prompts: number;
  historyLines: number;
  /** The newest prompt's time (epoch ms): the history's last line is dated 1 s after it. */
  newestPromptMs: number;
  /** Image-relative path of the history file. */
  historyFile: string;
  bytes: number;
}

const DATA = 'home/u/.cline/data';
const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;

/** Prompt k (0-based) of session i. */
const promptText = (o: RepeatedPromptsOptions, i: number, k: number) =>
  o.distinct ? `continue with step ${i}.${k}` : 'continue';

/** The manifest (`<sid>.json`) of a finished CLI session in `~/.cline/data`, as the SDK writes it. */
export function sdkManifest(sid: string, startMs: number, prompt: string, pid: number): Record<string, unknown> {
  return {
    version: 1,
    session_id: sid,
    source: 'cli',
    pid,
    started_at: new Date(startMs).toISOString(),
    status: 'completed',
    interactive: true,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    cwd: '/home/u/proj',
    workspace_root: '/home/u/proj',
    prompt,
    metadata: { title: prompt },
    messages_path: `/${DATA}/sessions/${sid}/${sid}.messages.json`,
  };
}

/** Writes the host image under `root` (created); returns what it holds. */
export function writeRepeatedPromptsHost(root: string, o: RepeatedPromptsOptions): RepeatedPromptsHost {
  let bytes = 0;
  const write = (rel: string, text: string) => {
    const file = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };
  const prompts: Array<{ text: string; ts: number }> = [];
  for (let i = 0; i < o.sessions; i++) {
    const start = T0 + i * 24 * 60 * MINUTE;
    const sid = `${start}_rep${String(i).padStart(2, '0')}`;
    const dir = `${DATA}/sessions/${sid}`;
    const manifest = sdkManifest(sid, start, promptText(o, i, 0), 4000 + i);
    write(`${dir}/${sid}.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    const messages: unknown[] = [];
    for (let k = 0; k < o.promptsPerSession; k++) {
      const ts = start + k * MINUTE;
      const text = promptText(o, i, k);
      prompts.push({ text, ts });
      messages.push({ id: `m${2 * k + 1}`, role: 'user', content: text, ts });
      messages.push({
        id: `m${2 * k + 2}`,
        role: 'assistant',
        content: [{ type: 'text', text: `Done with step ${i}.${k}.` }],
        ts: ts + 5000,
      });
    }
    const transcript = {
      version: 1,
      updated_at: new Date(start + o.promptsPerSession * MINUTE).toISOString(),
      agent: 'lead',
      sessionId: sid,
      origin: { source: 'cli', mode: 'user', sessionId: sid },
      messages,
    };
    write(`${dir}/${sid}.messages.json`, `${JSON.stringify(transcript)}\n`);
  }
  const newestPromptMs = prompts.length ? prompts[prompts.length - 1].ts : T0;
  // The history holds the newest prompts, oldest first; every line carries the last rewrite's ts.
  const rewrite = newestPromptMs + 1000;
  const lines: string[] = [];
  for (let j = 0; j < o.historyLines; j++) {
    const p = prompts[prompts.length - o.historyLines + j];
    lines.push(JSON.stringify({ prompt: p ? p.text : promptText(o, 0, 0), ts: rewrite }));
  }
  const historyFile = `${DATA}/cache/user_input_history.jsonl`;
  if (o.historyLines > 0) write(historyFile, `${lines.join('\n')}\n`);
  return { prompts: prompts.length, historyLines: o.historyLines, newestPromptMs, historyFile, bytes };
}
