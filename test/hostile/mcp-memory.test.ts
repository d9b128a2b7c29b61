/**
 * Issue 24 point 4: one MCP call must not take the server's memory past a bound, and a time limit must
 * hold. The built CLI's `clinetrail mcp` runs under the SDK's client over stdio (test/mcp/harness.ts) on
 * the demo fleet, and answers the hostile tester's calls: `select repeat('x', 100000) from
 * range(20000)` with max_rows 10,000 and max_cell_chars 100,000 (before: 19 rows at a 2.26 GB peak),
 * the same with 1 MB cells (before: 3.0 GB to 6 GB), and a query of 1 MB cells that runs past a 5 s time
 * limit (before: a 60 s limit answered at 69 s). The server's peak RSS is its VmHWM, read from
 * /proc/<pid>/status before it exits, and must stay under 1.2 GB (DuckDB's own limit is 1 GB); every
 * call must answer within its time limit + 1 s, the product's promise, and the last one cannot finish
 * within its limit whatever the machine's speed. `clinetrail query` (table output) on the
 * same result is held to the same bound, its VmHWM sampled while it runs.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { answerFields, CLI, connectClient, loadDemoFleet, tempDir, toolErrorOf } from '../mcp/harness.js';

/** The bound on the server's peak RSS, in kB as /proc gives it (1.2 GB). */
const MAX_PEAK_KB = 1.2e9 / 1024;
const HAS_PROC = fs.existsSync('/proc/self/status');

let tmp = '';
let out = '';
let client: Client;
let transport: StdioClientTransport;

/** VmHWM (peak resident set) of a running process, in kB. */
function peakKb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]);
}

interface QueryFields {
  rows: string[][];
  row_count: number;
  truncated_by: string | null;
  cells_cut: number;
}

/** Calls `query`; asserts that the answer came within the call's time limit (default 30 s) + 1 s. */
async function query(args: Record<string, unknown>): Promise<CallToolResult> {
  const t0 = Date.now();
  const answer = (await client.callTool({ name: 'query', arguments: args }, undefined, { timeout: 300_000 })) as CallToolResult;
  expect(Date.now() - t0, 'answered within its time limit + 1 s').toBeLessThanOrEqual(
    ((args.timeout_seconds as number) ?? 30) * 1000 + 1000,
  );
  return answer;
}

beforeAll(async () => {
  tmp = tempDir('clinetrail-mcp-memory-');
  out = loadDemoFleet(tmp);
  if (HAS_PROC) ({ client, transport } = await connectClient(out));
});

afterAll(async () => {
  await client?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!HAS_PROC)('clinetrail mcp: one call is bounded in memory and time (needs /proc for VmHWM)', () => {
  it('100 KB cells, max_rows 10,000: the rows that fit the answer, whole, under 1.2 GB', async () => {
    const answer = await query({
      sql: "select repeat('x', 100000) as big from range(20000)",
      max_rows: 10_000,
      max_cell_chars: 100_000,
    });
    expect(toolErrorOf(answer)).toBeNull();
    const fields = answerFields<QueryFields>(answer);
    // each row is 100,000 characters of JSON and a little: the 2,000,000-character answer holds 19
    expect(fields).toMatchObject({ row_count: 19, truncated_by: 'answer_size', cells_cut: 0 });
    expect(fields.rows.every(([cell]) => cell === 'x'.repeat(100_000))).toBe(true);
    const pid = transport.pid;
    expect(pid).not.toBeNull();
    expect(peakKb(pid as number)).toBeLessThan(MAX_PEAK_KB);
  }, 300_000);

  it('1 MB cells: cut at max_cell_chars as they are read, under 1.2 GB', async () => {
    const answer = await query({ sql: "select repeat('x', 1000000) as big from range(20000)", max_rows: 10_000 });
    expect(toolErrorOf(answer)).toBeNull();
    const fields = answerFields<QueryFields>(answer);
    expect(fields.truncated_by).toBe('answer_size');
    expect(fields.row_count).toBeGreaterThan(900);
    expect(fields.cells_cut).toBe(fields.row_count);
    expect(fields.rows.every(([cell]) => cell === `${'x'.repeat(2000)}…`)).toBe(true);
    expect(peakKb(transport.pid as number)).toBeLessThan(MAX_PEAK_KB);
  }, 300_000);

  it('a 5 s time limit on a query of 1 MB cells that cannot end sooner answers within 6 s', async () => {
    // one row in 20,000,000 of a range of 10^12: rows come a few a second, far from any cap
    const sql = "select repeat('x', 1000000) || i as big from range(1000000000000) t(i) where i % 20000000 = 0";
    // query() asserts the answer came within 6 s
    const answer = await query({ sql, max_rows: 10_000, timeout_seconds: 5 });
    expect(toolErrorOf(answer)).toMatchObject({ kind: 'time_limit', message: expect.stringContaining('5 s') });
    expect(peakKb(transport.pid as number)).toBeLessThan(MAX_PEAK_KB);
    // and the server goes on
    expect(answerFields<QueryFields>(await query({ sql: 'select 42 as n' })).rows).toEqual([[42]]);
  }, 300_000);

  it('clinetrail query prints a table of 100 KB cells under 1.2 GB', async () => {
    const child = spawn(process.execPath, [CLI, 'query', '--out', out, "select repeat('x', 100000) as big from range(20000)"], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TZ: 'UTC' },
    });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      for (const byte of d) if (byte === 0x0a) lines++;
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // VmHWM only grows: sampled until the process ends, the last sample is its peak up to then
    let peak = 0;
    const sample = setInterval(() => {
      try {
        peak = Math.max(peak, peakKb(child.pid as number));
      } catch {
        // it has just exited
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(sample);
    expect(code, stderr).toBe(0);
    // a header, its rule, the 20,000 rows and the count line
    expect(lines).toBe(20_003);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(MAX_PEAK_KB);
  }, 300_000);
});
