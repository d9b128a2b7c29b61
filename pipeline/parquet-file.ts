/**
 * Arrow record batch → Parquet bytes (zstd) with parquet-wasm, measured in ../shared/feasibility.md as
 * the fastest writer that keeps memory bounded when fed by the hand-made Arrow builder.
 */
import { Table as ArrowTable, tableToIPC, type RecordBatch } from 'apache-arrow';
import * as parquet from 'parquet-wasm/node';

/** Parquet file bytes holding one record batch, zstd-compressed. */
export function recordBatchToParquet(batch: RecordBatch): Uint8Array {
  const ipc = tableToIPC(new ArrowTable([batch]), 'stream');
  const table = parquet.Table.fromIPCStream(ipc);
  const props = new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.ZSTD)
    .setMaxRowGroupSize(1024 * 1024)
    .build();
  return parquet.writeParquet(table, props);
}
