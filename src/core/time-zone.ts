/**
 * IANA time zones for the local wall clocks some sources write with no zone (1.x cline-core and Go host
 * logs, readers/cline-logs/log-lines.ts): whether a zone name is known, and the UTC instant of a wall-clock
 * time in a zone. Node's own Intl (full ICU) holds the zone data; no package is needed for this.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter that prints an instant as the wall clock of `zone`; throws RangeError for an unknown zone. */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * `zone` as given when it is an IANA Area/City zone Node knows (`Europe/Berlin`, `Asia/Kolkata`, `UTC`),
 * else null. The name is kept as the user spelled it: ICU would answer an old alias (`Asia/Calcutta`). Offsets (`+02:00`) and abbreviations (`CET`, `EST`) are not zones: a wall clock's offset
 * changes with daylight saving time, which only a named zone knows.
 */
export function knownTimeZone(zone: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  if (zone !== 'UTC' && !zone.includes('/')) return null;
  try {
    formatterOf(zone);
    return zone;
  } catch {
    return null;
  }
}

/** The zone's offset from UTC at `instant` (epoch ms), in ms: its wall clock minus UTC. */
function offsetAt(zone: string, instant: number): number {
  const parts: Record<string, string> = {};
  for (const p of formatterOf(zone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = Date.UTC(
    year,
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The UTC instant (epoch ms) of a wall-clock time of `zone`, given as the epoch ms it would be if it were
 * UTC (what log-lines.ts `wallClockMs` reads). A time in the hour a zone skips (spring forward), which no
 * clock showed, is read with the offset after the change; a time of the hour it repeats (fall back) is
 * read as its first pass.
 */
export function wallClockToUtc(wallAsUtcMs: number, zone: string): number {
  const before = offsetAt(zone, wallAsUtcMs - offsetAt(zone, wallAsUtcMs));
  const candidate = wallAsUtcMs - before;
  const after = offsetAt(zone, candidate);
  if (after === before) {
    // the repeated hour: an earlier instant with the larger (summer) offset shows the same wall clock
    const earlier = wallAsUtcMs - offsetAt(zone, candidate - 3_600_000);
    return earlier < candidate && earlier + offsetAt(zone, earlier) === wallAsUtcMs ? earlier : candidate;
  }
  // the offset at the candidate differs: the skipped hour, or a first guess on the far side of a change
  const second = wallAsUtcMs - after;
  return second + offsetAt(zone, second) === wallAsUtcMs ? second : candidate;
}
