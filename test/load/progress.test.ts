/** Progress rendering: live line on a terminal, periodic plain lines on a pipe, JSON lines, quiet. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/records.js';
import { createProgress, summaryLine, type LoadEvent } from '../../src/load/progress.js';

const RUN: RunRecord = {
  run_id: 'r1',
  started_at: '2026-10-03T09:00:00.000Z',
  ended_at: '2026-10-03T09:01:00.000Z',
  hosts: 2,
  partitions_written: 3,
  partitions_unchanged: 1,
  partitions_removed: 0,
  files_read: 7,
  files_unchanged: 2,
  rows_written: 1500,
  parser_errors: 1,
  discovery_problems: 0,
  is_full_load: false,
  shard_index: null,
  shard_count: null,
  clinetrail_version: '0.1.0+0123456789abcdef',
  secrets_redacted: true,
  secrets_found: 0,
  duplicates_dropped: 5,
  finished_at: '2026-10-03T09:01:01.234Z',
  prune: false,
  hosts_absent: [],
  hosts_kept_empty: [],
  hosts_renamed: [],
  host_images: [],
  fleet: null,
  shard_missing: false,
};

function harness(format: 'text' | 'json', isTTY: boolean, quiet = false) {
  let clock = 0;
  const out: string[] = [];
  const emit = createProgress({ format, quiet, isTTY, write: (t) => out.push(t), now: () => clock });
  return { out, emit, tick: (ms: number) => (clock += ms) };
}

const partition = (host: string, rows: number, bytes: number): LoadEvent => ({
  event: 'partition',
  host,
  store: 'vscode-tasks',
  unchanged: false,
  rows,
  files: 1,
  bytes,
  parser_errors: 0,
});

describe('progress', () => {
  it('rewrites one live line on a terminal, with MB read, rows, rate and ETA', () => {
    const h = harness('text', true);
    h.emit({ event: 'discovered', hosts: 2, partitions: 4 });
    h.tick(2000);
    h.emit(partition('a', 100, 4 * 1024 * 1024));
    expect(h.out[1]).toBe('\r\x1b[K[1/4 partitions, 1 hosts] 4.0 MB read, 100 rows, 2.0 MB/s ETA 6s');
    h.emit({ event: 'problem', host: 'a', file: '/x/fifo', message: 'FIFO, not read' });
    expect(h.out.slice(2)).toEqual(['\r\x1b[K', 'a: /x/fifo: FIFO, not read\n']);
  });

  it('writes a plain line at most every 10 s on a pipe, and at the last partition', () => {
    const h = harness('text', false);
    h.emit({ event: 'discovered', hosts: 3, partitions: 3 });
    h.tick(10_000);
    h.emit(partition('a', 1, 1024 * 1024));
    h.tick(1000);
    h.emit(partition('b', 1, 1024 * 1024));
    h.tick(1000);
    h.emit(partition('c', 1, 1024 * 1024));
    expect(h.out).toEqual([
      'discovered 3 host(s), 3 partition(s)\n',
      '[1/3 partitions, 1 hosts] 1.0 MB read, 1 rows, 0.1 MB/s ETA 20s\n',
      '[3/3 partitions, 3 hosts] 3.0 MB read, 3 rows, 0.3 MB/s\n',
    ]);
  });

  it('writes one JSON object per event with --log-format json, and only the summary when quiet', () => {
    const h = harness('json', false);
    h.emit({ event: 'discovered', hosts: 1, partitions: 1 });
    h.emit({ event: 'done', run: RUN, duplicates_dropped: 5 });
    expect(h.out.map((l) => JSON.parse(l))).toEqual([
      { ts: '1970-01-01T00:00:00.000Z', event: 'discovered', hosts: 1, partitions: 1 },
      { ts: '1970-01-01T00:00:00.000Z', event: 'done', run: RUN, duplicates_dropped: 5 },
    ]);
    const q = harness('json', false, true);
    q.emit({ event: 'discovered', hosts: 1, partitions: 1 });
    q.emit({ event: 'done', run: RUN, duplicates_dropped: 5 });
    expect(q.out).toHaveLength(1);
    const t = harness('text', true, true);
    t.emit({ event: 'discovered', hosts: 1, partitions: 1 });
    t.emit(partition('a', 1, 1));
    expect(t.out).toEqual([]);
  });

  it('summarises a run in one line', () => {
    expect(summaryLine(RUN, '/w', 1234)).toBe(
      'loaded 2 host(s): 3 partition(s) written, 1 unchanged, 0 removed; 7 file(s) read, 2 unchanged; 1500 row(s), 1 parser error(s), 5 duplicate(s) dropped, 0 secret(s) redacted in 1.2 s -> /w\n',
    );
  });

  it('prints the host names it lists without their control characters, on one line', () => {
    const line = summaryLine({ ...RUN, hosts_absent: ['ok', 'x\x1b]0;title\x07\u009b2J\r\nforged\u202e'] }, '/w', 1234);
    expect(line.endsWith('; 2 host(s) not in this input kept: ok, x␛]0;title␇?2J forged?\n')).toBe(true);
    expect(line.split('\n')).toEqual([line.slice(0, -1), '']);
  });
});
