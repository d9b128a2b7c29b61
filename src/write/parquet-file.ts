/**
 * Arrow record batches → one Parquet file (snappy), written as it goes with parquet-wasm's streaming
 * writer (`transformParquetStream`), so a part of tens of MB never sits whole in memory: each batch is
 * encoded into the open row group, and a row group is flushed to the file once it holds
 * ROW_GROUP_BYTES. parquet-wasm was measured in ../shared/feasibility.md as the fastest writer that
 * keeps memory bounded when fed by the hand-made Arrow builder.
 * - The IPC stream is written by RecordBatchStreamWriter directly: the same bytes as `tableToIPC`, at
 *   about a third of its fixed cost, which dominates for the few rows of a small partition.
 * - Dictionary encoding is off: parts of the bench fleets were written faster without it, and came out
 *   about as small (docs/BENCHMARKS.md "Behind the code"). Every column of every file is plain, so `host` is never a dictionary in one file and not
 *   in another.
 * - Snappy, not zstd: a third to a fifth of the encoding time, for larger parts (docs/BENCHMARKS.md "Behind the code").
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { RecordBatchStreamWriter, type RecordBatch } from 'apache-arrow';
import * as parquet from 'parquet-wasm/node';

/**
 * Bytes of a row group, as parquet-wasm estimates its buffered data, before it is flushed to the file;
 * twice as much raised the bench fleet's load peak (docs/BENCHMARKS.md "Behind the code").
 */
export const ROW_GROUP_BYTES = 8 * 1024 * 1024;

/** What a closed part holds. */
export interface WrittenPart {
  size: number;
  sha256: string;
  rows: number;
}

function writerProperties(): parquet.WriterProperties {
  return new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.SNAPPY)
    .setDictionaryEnabled(false)
    .setMaxRowGroupSize(1024 * 1024)
    .setMaxRowGroupBytes(ROW_GROUP_BYTES)
    .build();
}

/** The batch as parquet-wasm's own RecordBatch (in wasm memory), through one IPC stream. */
function toWasm(batch: RecordBatch): parquet.RecordBatch[] {
  const writer = new RecordBatchStreamWriter();
  writer.write(batch);
  writer.finish();
  const table = parquet.Table.fromIPCStream(writer.toUint8Array(true));
  const batches = table.recordBatches();
  table.free();
  return batches;
}

/**
 * One Parquet file written batch by batch. `write` resolves once the streaming writer has taken the
 * batch, so at most one batch waits outside it; `close` resolves once the footer is on disk.
 */
export class PartWriter {
  private readonly fd: number;
  private readonly hash = createHash('sha256');
  private size = 0;
  private rows = 0;
  /** Batches handed over and not yet pulled by the writer; null closes the stream. */
  private readonly queue: Array<parquet.RecordBatch | null> = [];
  private pulled: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private done: Promise<void> | null = null;
  private failure: unknown = null;
  /** Set by abort: the file is closed, and whatever the writer still emits is dropped. */
  private aborted = false;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'wx');
  }

  /** Bytes in the file so far: the row groups flushed, not the one still open. */
  get bytesWritten(): number {
    return this.size;
  }

  private start(): Promise<void> {
    const input = new ReadableStream<parquet.RecordBatch>(
      {
        pull: async (controller) => {
          while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
          const next = this.queue.shift() ?? null;
          this.pulled?.();
          if (next === null) controller.close();
          else controller.enqueue(next);
        },
      },
      { highWaterMark: 0 },
    );
    const sink = new WritableStream<Uint8Array>({
      write: (chunk) => {
        if (this.aborted) return;
        writeSync(this.fd, chunk);
        this.hash.update(chunk);
        this.size += chunk.length;
      },
    });
    return parquet
      .transformParquetStream(input, writerProperties())
      .then((output) => output.pipeTo(sink))
      .catch((err: unknown) => {
        this.failure = err;
        this.pulled?.();
      });
  }

  private async hand(item: parquet.RecordBatch | null): Promise<void> {
    const taken = new Promise<void>((resolve) => (this.pulled = resolve));
    this.queue.push(item);
    this.done ??= this.start();
    this.wake?.();
    await Promise.race([taken, this.done]);
    if (this.failure !== null) throw this.failure;
  }

  /** Appends the rows of `batch` to the file. */
  async write(batch: RecordBatch): Promise<void> {
    for (const b of toWasm(batch)) await this.hand(b);
    this.rows += batch.numRows;
  }

  /** Gives up the part after a failure elsewhere: the writer's stream is ended and the file closed. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.queue.push(null);
    this.wake?.();
    closeSync(this.fd);
  }

  /** Writes the footer and closes the file; returns its size and SHA-256. */
  async close(): Promise<WrittenPart> {
    try {
      if (this.done !== null) {
        await this.hand(null);
        await this.done;
        if (this.failure !== null) throw this.failure;
      }
    } finally {
      if (!this.aborted) closeSync(this.fd);
      this.aborted = true;
    }
    return { size: this.size, sha256: this.hash.digest('hex'), rows: this.rows };
  }
}
