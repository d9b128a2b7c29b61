/**
 * The MCP tests' setup: the demo fleet loaded by the built CLI into a temporary OUT, and the built
 * CLI's `mcp --out OUT` started under the SDK's own client over stdio (or as a raw child process).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from '../helpers/source.js';

export const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

/** Loads fixtures/fleet into `<tmp>/out` with the built CLI; returns OUT. */
/** Loads the demo fleet into `tmp/out` (`args`: more load arguments, e.g. `--no-hunts`). */
export function loadDemoFleet(tmp: string, args: readonly string[] = []): string {
  if (!fs.existsSync(CLI))
    throw new Error(`${path.relative(REPO, CLI)} not found: build first (npx tsc -p tsconfig.json, or make test)`);
  const out = path.join(tmp, 'out');
  const load = spawnSync(process.execPath, [CLI, 'load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 240_000,
  });
  if (load.status !== 0) throw new Error(`load failed (${load.status}): ${load.stderr}`);
  return out;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** An SDK client connected to `clinetrail mcp --out OUT`; `tz` is the server's TZ (its answers stay UTC). */
export async function connectClient(out: string, tz = 'UTC'): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--out', out],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), TZ: tz },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'clinetrail-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The `{error: {kind, message}}` of a tool error, or null for a success. */
export function toolErrorOf(answer: object): { kind: string; message: string } | null {
  const result = answer as Partial<CallToolResult>;
  if (!result.isError) return null;
  const first = result.content?.[0];
  const text = first?.type === 'text' ? first.text : '';
  try {
    return (JSON.parse(text) as { error: { kind: string; message: string } }).error;
  } catch {
    return { kind: 'text', message: text };
  }
}

/**
 * A success's structured content with the fields of `untrusted_evidence` beside the server's own, for
 * tests about what an answer holds (test/hostile/mcp-evidence-fence.test.ts tests where evidence is).
 */
export function answerFields<T>(answer: object): T {
  const content = ((answer as Partial<CallToolResult>).structuredContent ?? {}) as Record<string, unknown>;
  const { untrusted_evidence: evidence, ...own } = content;
  return { ...own, ...(evidence as Record<string, unknown> | undefined) } as T;
}

/** What a tool error carries of DuckDB's own message (fenced as evidence), or null. */
export function errorDetailOf(answer: object): string | null {
  const first = (answer as Partial<CallToolResult>).content?.[0];
  const text = first?.type === 'text' ? first.text : '{}';
  return (JSON.parse(text) as { untrusted_evidence?: { error_detail?: string } }).untrusted_evidence?.error_detail ?? null;
}

/** Whether a process of that pid still runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
