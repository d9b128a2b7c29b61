/**
 * `clinetrail mcp` as a stdio process, driven with raw lines as a broken or hostile client would write
 * them: every bad line gets a JSON-RPC error and the server goes on; stdout carries nothing but
 * JSON-RPC messages; at the end of stdin it answers what it has read, then exits 0; SIGTERM interrupts
 * a running query and exits 0; nothing is left running and no query folder is left in OUT/tmp.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { CLI, isRunning, loadDemoFleet, tempDir } from './harness.js';

let tmp = '';
let out = '';

beforeAll(() => {
  tmp = tempDir('clinetrail-mcp-stdio-');
  out = loadDemoFleet(tmp);
});

/** Every server started, so a failed test leaves none running. */
const started: RawServer[] = [];

afterAll(() => {
  for (const server of started)
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface Message {
  jsonrpc: string;
  id?: number | string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The server as a child process, its stdout read line by line. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor() {
    this.child = spawn(process.execPath, [CLI, 'mcp', '--out', out], { cwd: REPO, env: { ...process.env, TZ: 'UTC' } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      this.buffer += text;
      for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n')) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on('data', (text: Buffer) => {
      this.stderr += text.toString();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    started.push(this);
  }

  send(line: string | Buffer): void {
    this.child.stdin.write(line);
  }

  request(id: number, method: string, params: Record<string, unknown> = {}): void {
    this.send(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  }

  initialize(id: number): void {
    this.request(id, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    this.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  /** Every line of stdout so far, each of which must be a JSON-RPC 2.0 message. */
  messages(): Message[] {
    return this.lines.map((line) => {
      const message = JSON.parse(line) as Message;
      expect(message.jsonrpc).toBe('2.0');
      return message;
    });
  }

  /** Waits until `count` messages matching `test` have come. */
  async waitFor(test: (m: Message) => boolean, count = 1, timeoutMs = 30_000): Promise<Message[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages().filter(test);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`timed out; stdout so far:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

const byId = (id: number) => (m: Message) => m.id === id;
const errorsWithoutId = (m: Message) => m.id === undefined && m.error !== undefined;

/** The query folders of OUT/tmp a server of that pid made. */
function queryFolders(pid: number): string[] {
  const dir = path.join(out, 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(`query-${pid}-`)) : [];
}

describe('clinetrail mcp over raw stdio', () => {
  it('refuses an --out that does not exist with exit 2, one line on stderr and nothing on stdout', () => {
    const run = spawnSync(process.execPath, [CLI, 'mcp', '--out', path.join(tmp, 'nowhere')], { encoding: 'utf8', input: '' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^clinetrail: mcp: --out \S+nowhere not found\n$/);
  });

  it('answers bad lines with JSON-RPC errors and goes on serving', async () => {
    const server = new RawServer();
    server.send('garbage{\n');
    server.send('\n   \n');
    server.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    server.send('{"jsonrpc":"2.0","id":7}\n');
    server.send('{"jsonrpc":"1.0","id":8,"method":"ping"}\n');
    server.send(Buffer.from([0xff, 0xfe, 0x7b, 0x0a]));
    server.request(9, 'no/such/method');
    // a response to nothing the server asked: no answer, and its content is not logged
    server.send('{"jsonrpc":"2.0","id":99,"result":{"planted":"STDERR-MARKER"}}\n');
    server.send(`${'a'.repeat(5 * 1024 * 1024)}\n`);
    server.initialize(10);
    server.request(11, 'tools/call', { name: 'query', arguments: { sql: 'select count(*) as n from hosts' } });
    server.request(12, 'tools/call', { name: 'query', arguments: { sql: "copy hosts to '/tmp/x.csv'" } });
    server.request(13, 'ping');

    const [call] = await server.waitFor(byId(11));
    expect(call.result?.structuredContent).toMatchObject({ untrusted_evidence: { rows: [[4]] }, row_count: 1 });
    const [refused] = await server.waitFor(byId(12));
    expect(refused.result?.isError).toBe(true);
    expect((await server.waitFor(byId(13)))[0].result).toEqual({});
    expect((await server.waitFor(byId(10)))[0].result?.serverInfo).toMatchObject({ name: 'clinetrail' });

    // a parse error for 'garbage{' and the bytes that are not UTF-8 JSON; an invalid request for the
    // batch and the overlong line (no usable id), and for ids 7 and 8; method not found for 9
    const anonymous = server.messages().filter(errorsWithoutId);
    expect(anonymous.map((m) => m.error?.code).sort()).toEqual([-32700, -32700, -32600, -32600].sort());
    expect((await server.waitFor(byId(7)))[0].error?.code).toBe(-32600);
    expect((await server.waitFor(byId(8)))[0].error?.code).toBe(-32600);
    expect((await server.waitFor(byId(9)))[0].error?.code).toBe(-32601);

    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.messages()).toHaveLength(11);
    expect(server.stderr).toMatch(/clinetrail: mcp: serving /);
    expect(server.stderr).not.toMatch(/aaaa/);
    expect(server.stderr).toMatch(/unknown message ID/);
    expect(server.stderr).toMatch(/clinetrail: mcp: query: ok in \d+ ms\n/);
    expect(server.stderr).toMatch(/clinetrail: mcp: query: refused in \d+ ms\n/);
    expect(server.stderr).not.toMatch(/select count/);
    expect(server.stderr).not.toMatch(/STDERR-MARKER/);
    expect(queryFolders(server.child.pid as number)).toEqual([]);
  });

  it('answers the requests it read before stdin closed, then exits 0', async () => {
    const server = new RawServer();
    server.initialize(1);
    server.request(2, 'tools/call', { name: 'query', arguments: { sql: 'select host from hosts order by host' } });
    server.request(3, 'tools/call', {
      name: 'query',
      arguments: { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 2 },
    });
    server.child.stdin.end();
    const t0 = Date.now();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(20_000);
    const [hosts] = server.messages().filter(byId(2));
    expect(hosts.result?.structuredContent).toMatchObject({
      untrusted_evidence: { rows: [['0042'], ['WIN-ALICE01'], ['lnx-u01'], ['mac-bob']] },
    });
    const [slow] = server.messages().filter(byId(3));
    expect(slow.result?.isError).toBe(true);
    expect(JSON.stringify(slow.result?.content)).toMatch(/time_limit/);
    expect(isRunning(server.child.pid as number)).toBe(false);
  });

  it('a request the client cancelled is not waited for when stdin closes', async () => {
    const server = new RawServer();
    server.initialize(1);
    await server.waitFor(byId(1));
    server.request(2, 'tools/call', {
      name: 'query',
      arguments: { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 300 },
    });
    server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })}\n`);
    server.child.stdin.end();
    const t0 = Date.now();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(server.messages().filter(byId(2))).toEqual([]);
  });

  it('SIGTERM interrupts a running query and exits 0 without leaving its query folder', async () => {
    const server = new RawServer();
    server.initialize(1);
    await server.waitFor(byId(1));
    server.request(2, 'tools/call', {
      name: 'query',
      arguments: { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 300 },
    });
    const pid = server.child.pid as number;
    const deadline = Date.now() + 10_000;
    while (queryFolders(pid).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(queryFolders(pid)).toHaveLength(1);
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(queryFolders(pid)).toEqual([]);
    expect(server.stderr).toMatch(/SIGTERM: stopping/);
  });

  it('SIGTERM at any moment of a call (opening, checking, running) ends the process with 0', async () => {
    for (const delay of [0, 50, 150, 300, 600]) {
      const server = new RawServer();
      server.initialize(1);
      await server.waitFor(byId(1));
      server.request(2, 'tools/call', {
        name: 'query',
        arguments: { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 300 },
      });
      await new Promise((r) => setTimeout(r, delay));
      server.child.kill('SIGTERM');
      const t0 = Date.now();
      expect(await server.exited, `SIGTERM after ${delay} ms`).toEqual({ code: 0, signal: null });
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(queryFolders(server.child.pid as number)).toEqual([]);
    }
  });
});
