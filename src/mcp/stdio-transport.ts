/**
 * MCP over stdio: one JSON-RPC message per line in, one per line out. The SDK's StdioServerTransport
 * drops a line that is not JSON without a reply, closes for good on a line over its buffer size, and
 * does not notice the end of stdin; this one answers every bad line and serves on:
 * - a line that is not JSON gets a JSON-RPC Parse error (-32700), a JSON value that is no JSON-RPC
 *   message (or a batch, which MCP does not have) an Invalid Request (-32600), with the request's id
 *   when it had a usable one (MCP's schema lets an error response leave the id out);
 * - a line over MAX_LINE_BYTES is skipped up to its newline and answered with an Invalid Request;
 * - at the end of input it waits until every request read has been answered (or cancelled by the
 *   client), then closes, so `printf '...' | clinetrail mcp` gets its answers.
 * Nothing but protocol messages is written to the output.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The longest request line read, in bytes (a query text, its arguments); longer lines are refused. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How long the end of input waits for the answers of the requests read (the longest time limit is 300 s). */
const DRAIN_MAX_MS = 330_000;

type RequestId = string | number;

/** Where the transport reads and writes: the process's stdin and a stdout writer that awaits drain. */
export interface LineIO {
  input: NodeJS.ReadableStream;
  write: (text: string) => void | Promise<void>;
  /** One line of diagnostics (stderr); never given a request's content. */
  log: (line: string) => void;
}

/** The id of a parsed request, when it has a usable one. */
function idOf(value: unknown): RequestId | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { id } = value as { id?: unknown };
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : undefined;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  /** Skipping the rest of an overlong line. */
  private skipping = false;
  private ended = false;
  private closed = false;
  /** Requests read and not answered yet. */
  private readonly unanswered = new Set<RequestId>();

  constructor(private readonly io: LineIO) {}

  async start(): Promise<void> {
    this.io.input.on('data', this.onData);
    this.io.input.on('end', this.onEnd);
    this.io.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    await this.io.write(`${JSON.stringify(message)}\n`);
    if (!('method' in message)) {
      const id = idOf(message);
      if (id !== undefined) this.unanswered.delete(id);
      this.closeWhenDrained();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.io.input.off('data', this.onData);
    this.io.input.off('end', this.onEnd);
    this.io.input.off('error', this.onInputError);
    this.io.input.pause();
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(0x0a); nl !== -1 && !this.closed; nl = data.indexOf(0x0a)) {
      const head = data.subarray(0, nl);
      data = data.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = Buffer.concat([...this.chunks, head]).toString('utf8');
      this.chunks = [];
      this.pendingBytes = 0;
      this.handleLine(line);
    }
    if (this.skipping || data.length === 0) return;
    this.chunks.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.chunks = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: a message line is longer than ${MAX_LINE_BYTES} bytes`);
    }
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    // requests are bounded by their time limits; this bounds a request the server would never answer
    setTimeout(() => void this.close(), DRAIN_MAX_MS).unref();
    if (this.pendingBytes > 0) {
      const line = Buffer.concat(this.chunks).toString('utf8');
      this.chunks = [];
      this.pendingBytes = 0;
      this.handleLine(line);
    }
    this.closeWhenDrained();
  };

  private readonly onInputError = (error: Error): void => {
    this.io.log(`clinetrail: mcp: stdin: ${error.message}`);
    this.ended = true;
    this.closeWhenDrained();
  };

  private closeWhenDrained(): void {
    if (this.ended && this.unanswered.size === 0) void this.close();
  }

  private handleLine(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(ErrorCode.ParseError, 'Parse error: the line is not JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const what = Array.isArray(value) ? 'a batch (MCP has none: send one message per line)' : 'not a JSON-RPC 2.0 message';
      this.refuse(ErrorCode.InvalidRequest, `Invalid Request: ${what}`, idOf(value));
      return;
    }
    const message = parsed.data;
    if ('method' in message && 'id' in message) this.unanswered.add(message.id);
    // a cancelled request gets no answer (MCP): it is not waited for at the end of input
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const cancelled = idOf({ id: (message.params as { requestId?: unknown } | undefined)?.requestId });
      if (cancelled !== undefined) this.unanswered.delete(cancelled);
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Answers a line that cannot be served: an error response, with the id when the line had one. */
  private refuse(code: number, message: string, id?: RequestId): void {
    this.io.log(`clinetrail: mcp: ${message}`);
    const response = { jsonrpc: '2.0' as const, ...(id === undefined ? {} : { id }), error: { code, message } };
    void this.io.write(`${JSON.stringify(response)}\n`);
  }
}
