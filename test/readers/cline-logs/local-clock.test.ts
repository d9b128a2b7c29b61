/**
 * Local wall clocks with no zone (issue 28 point 5): core/time-zone.ts reads a wall-clock time in an IANA
 * zone, and readers/cline-logs/reader.ts reads the 1.x logs' times in the host's zone (Source.timeZone) with
 * timestamp_source local_clock. The zone rules expected are the zones' own (Berlin CET/CEST, New York
 * EST/EDT, Kolkata +05:30 all year), never what the code printed. Run under TZ=UTC and a non-UTC TZ:
 * the process's own zone must change nothing.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { knownTimeZone, wallClockToUtc } from '../../../src/core/time-zone.js';
import { readClineLogs } from '../../../src/readers/cline-logs/reader.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

/** A wall-clock text read in `zone`, as an ISO UTC text. */
const inZone = (wall: string, zone: string) => new Date(wallClockToUtc(Date.parse(`${wall}Z`), zone)).toISOString();

describe('wallClockToUtc', () => {
  it('reads a wall clock in winter and summer time', () => {
    expect(inZone('2026-12-01T16:59:06.777', 'Europe/Berlin')).toBe('2026-12-01T15:59:06.777Z'); // CET, +01:00
    expect(inZone('2026-07-01T12:00:00.000', 'Europe/Berlin')).toBe('2026-07-01T10:00:00.000Z'); // CEST, +02:00
    expect(inZone('2026-07-01T12:00:00.000', 'America/New_York')).toBe('2026-07-01T16:00:00.000Z'); // EDT, -04:00
    expect(inZone('2026-01-15T23:30:00.000', 'America/New_York')).toBe('2026-01-16T04:30:00.000Z'); // EST, -05:00
    expect(inZone('2026-06-01T00:00:00.000', 'Asia/Kolkata')).toBe('2026-05-31T18:30:00.000Z');
    expect(inZone('2026-06-01T00:00:00.000', 'UTC')).toBe('2026-06-01T00:00:00.000Z');
  });

  it('reads the repeated hour of a fall-back as its first pass, and the skipped hour of a spring-forward with the later offset', () => {
    // New York 2026-11-01: 01:00-02:00 happens twice, first in EDT (-04:00)
    expect(inZone('2026-11-01T01:30:00.000', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    // Berlin 2026-10-25: 02:00-03:00 twice, first in CEST (+02:00)
    expect(inZone('2026-10-25T02:30:00.000', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    // New York 2026-03-08: no clock showed 02:30; read with EDT (-04:00)
    expect(inZone('2026-03-08T02:30:00.000', 'America/New_York')).toBe('2026-03-08T06:30:00.000Z');
    // the hours around the changes are plain
    expect(inZone('2026-03-08T01:30:00.000', 'America/New_York')).toBe('2026-03-08T06:30:00.000Z');
    expect(inZone('2026-03-08T03:30:00.000', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
  });
});

describe('knownTimeZone', () => {
  it('takes IANA zones as given and refuses offsets, abbreviations and unknown names', () => {
    expect(['Europe/Berlin', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'UTC'].map(knownTimeZone)).toEqual([
      'Europe/Berlin',
      'Asia/Kolkata',
      'America/Argentina/Buenos_Aires',
      'UTC',
    ]);
    expect(['Mars/Olympus_Mons', '+02:00', 'CET', 'EST', '', 'Europe/', '../etc/passwd'].map(knownTimeZone)).toEqual(
      Array(7).fill(null),
    );
  });
});

describe('readClineLogs with the host zone', () => {
  const home = fixture('real-producer', 'cline-1.0.10', 'home');
  const read = (timeZone?: string): Promise<Row[]> => {
    const source = makeSource({ store: 'cline-logs', imageRoot: home, home: '', root: path.join(home, '.cline', 'logs') });
    return collect(readClineLogs, timeZone === undefined ? source : { ...source, timeZone });
  };

  it("reads cline-core's and Go's wall clocks in the zone, as local_clock, and nothing else", async () => {
    const plain = await read();
    const berlin = await read('Europe/Berlin');
    expect(berlin.length).toBe(plain.length);
    const clocks = plain.filter((r) => r.timestamp_source === 'local_clock');
    // both 1.x formats write a wall clock: the bracket-time cline-core lines and the Go host bridge's
    expect(new Set(clocks.map((r) => path.basename(r.source_file).split('-')[1]))).toEqual(new Set(['core', 'host']));
    // the driver ran on 2026-12-03, in Berlin's winter time (+01:00): each clock is an hour earlier in UTC
    expect(berlin).toEqual(
      plain.map((r) =>
        r.timestamp_source === 'local_clock' ? { ...r, timestamp_utc: (r.timestamp_utc as number) - 3_600_000 } : r,
      ),
    );
    expect(plain.every((r) => (r.timestamp_utc === null) === (r.timestamp_source === null))).toBe(true);
  });
});
