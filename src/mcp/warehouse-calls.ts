/**
 * The MCP server's access to the warehouse: each tool call opens its own sandboxed, read-only
 * connection (warehouse/build.ts withQueryConnection, the one `clinetrail query` uses), so a call
 * after a load sees the new fleet.duckdb, and a call during a load the previous one, exactly as a query
 * would; the server takes no lock and holds no file open between calls.
 * Calls run one at a time (each instance may use DuckDB's whole memory limit), under a time limit counted
 * from the call (a wait behind another call counts): when it passes, or the client cancels, or the server
 * shuts down, DuckDB is interrupted and the call's signal aborts, which stops its reading between two
 * slices of rows (warehouse/query-stream.ts). A call whose limit passes while it waits answers then,
 * without running.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import pLimit from 'p-limit';
import { withQueryConnection } from '../warehouse/build.js';

const INTERRUPT_REPEAT_MS = 100;

/** Adds a connection the call opened to those its stop interrupts. */
export type Track = (conn: DuckDBConnection) => void;

/** A call stopped by its time limit, the client or the server's shutdown. */
export class CallStopped extends Error {
  constructor(
    readonly reason: 'time_limit' | 'cancelled' | 'shutdown',
    message: string,
  ) {
    super(message);
  }
}

const shutdownStop = () => new CallStopped('shutdown', 'query: the server is shutting down');
const timeLimit = (ms: number) =>
  new CallStopped('time_limit', `query: stopped by the time limit of ${ms / 1000} s (timeout_seconds)`);
const cancelStop = () => new CallStopped('cancelled', 'query: the client cancelled the call');

/** How one call may run. */
export interface CallLimits {
  timeoutMs: number;
  /** The client's cancellation of the request (MCP notifications/cancelled). */
  signal?: AbortSignal;
}

export class WarehouseCalls {
  private readonly queue = pLimit(1);
  private readonly running = new Set<() => void>();
  private shuttingDown = false;

  constructor(readonly out: string) {}

  /**
   * Runs `use` on a fresh sandboxed connection to OUT/fleet.duckdb, under `limits`; `signal` aborts when the
   * call is stopped, and every connection given to `track` (a hunt's batch of hosts: hunt/run.ts) is
   * interrupted with the call's own.
   */
  run<T>(limits: CallLimits, use: (conn: DuckDBConnection, signal: AbortSignal, track: Track) => Promise<T>): Promise<T> {
    const deadline = Date.now() + limits.timeoutMs;
    const queued = this.queue(() => this.runNow(limits, deadline, use));
    // a call that waits past its limit answers then; its turn, when it comes, runs nothing
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeLimit(limits.timeoutMs)), limits.timeoutMs);
    });
    queued.catch(() => undefined);
    return Promise.race([queued, late]).finally(() => clearTimeout(timer));
  }

  /** Interrupts every running call and refuses new ones (the server is stopping). */
  shutdown(): void {
    this.shuttingDown = true;
    this.queue.clearQueue();
    for (const stop of this.running) stop();
  }

  private async runNow<T>(
    limits: CallLimits,
    deadline: number,
    use: (conn: DuckDBConnection, signal: AbortSignal, track: Track) => Promise<T>,
  ): Promise<T> {
    if (this.shuttingDown) throw shutdownStop();
    if (limits.signal?.aborted) throw cancelStop();
    if (Date.now() >= deadline) throw timeLimit(limits.timeoutMs);
    let stopped: CallStopped | null = null;
    let repeat: NodeJS.Timeout | undefined;
    const reading = new AbortController();
    return withQueryConnection(this.out, {}, async (conn) => {
      const tracked = [conn];
      const track: Track = (other) => {
        tracked.push(other);
        if (stopped !== null) other.interrupt();
      };
      // an interrupt between two statements of the call (the sandbox check, then the query) would be
      // lost, so it is repeated until the call ends
      const interrupt = () => {
        for (const c of tracked) c.interrupt();
      };
      const stop = (why: CallStopped) => {
        if (stopped !== null) return;
        stopped = why;
        reading.abort();
        interrupt();
        repeat = setInterval(interrupt, INTERRUPT_REPEAT_MS);
      };
      const timer = setTimeout(() => stop(timeLimit(limits.timeoutMs)), Math.max(0, deadline - Date.now()));
      const onAbort = () => stop(cancelStop());
      const onShutdown = () => stop(shutdownStop());
      limits.signal?.addEventListener('abort', onAbort);
      this.running.add(onShutdown);
      try {
        // a stop that came while the connection was being opened: nothing of the call runs
        if (this.shuttingDown) throw shutdownStop();
        if (limits.signal?.aborted) throw cancelStop();
        const result = await use(conn, reading.signal, track);
        // an interrupted or aborted read can end as if it were complete: the flag says it was not
        if (stopped !== null) throw stopped;
        return result;
      } catch (err) {
        throw stopped ?? err;
      } finally {
        clearTimeout(timer);
        clearInterval(repeat);
        limits.signal?.removeEventListener('abort', onAbort);
        this.running.delete(onShutdown);
      }
    });
  }
}
