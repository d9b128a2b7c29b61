/**
 * Arrow record batch → Parquet bytes (snappy) with parquet-wasm, measured in ../shared/feasibility.md as
 * the fastest writer that keeps memory bounded when fed by the hand-made Arrow builder.
 */
import { RecordBatchStreamWriter, type RecordBatch } from 'apache-arrow';
import * as parquet from 'parquet-wasm/node';

/**
 * Parquet file bytes holding one record batch, snappy-compressed.
 * - The IPC stream is written by RecordBatchStreamWriter directly: the same bytes as `tableToIPC`, at
 *   about a third of its fixed cost, which dominates for the few rows of a small partition.
 * - Dictionary encoding is off: parts of the bench fleets (7 to 48,000 rows) were written 1.1 to 2.5
 *   times faster without it (5 times for 7 rows), and came out 0-10 % smaller with zstd, 3 % larger with
 *   snappy.
 * - Snappy, not zstd: the parts of the bench's 100 MB transcript were encoded in 250-300 ms instead of
 *   840-1,360 ms (a sixth of the worker's time), for parts 43 % larger (14.2 MB instead of 9.9 MB).
 */
export function recordBatchToParquet(batch: RecordBatch): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  writer.write(batch);
  writer.finish();
  const table = parquet.Table.fromIPCStream(writer.toUint8Array(true));
  const props = new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.SNAPPY)
    .setDictionaryEnabled(false)
    .setMaxRowGroupSize(1024 * 1024)
    .build();
  return parquet.writeParquet(table, props);
}
