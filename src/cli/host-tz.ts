/**
 * `load --host-tz`: the IANA zone of each host's local clocks, for the sources that write a wall clock with
 * no zone (1.x cline-core and Go host logs). Each value is `HOST=Area/City`, or the path of a CSV file of
 * `host,time_zone` lines (a first line `host,time_zone` is a header). A value that is neither, a zone
 * Node does not know, or one host given two zones is an argument error (exit 2).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { knownTimeZone } from '../core/time-zone.js';
import { UsageError } from '../load/run.js';

const SHAPE = 'HOST=Area/City (an IANA zone such as Europe/Berlin) or a CSV file of host,time_zone lines';

/** One host's zone, checked. */
function zoneOf(host: string, zone: string, where: string): string {
  if (host === '') throw new UsageError(`load: --host-tz wants ${SHAPE}, got '${where}'`);
  const known = knownTimeZone(zone);
  if (known === null)
    throw new UsageError(
      `load: --host-tz ${where}: '${zone}' is no time zone (want an IANA Area/City name such as Europe/Berlin)`,
    );
  return known;
}

/** The `HOST=Area/City` pairs of a CSV file, one per line; `where` names the line in errors. */
function csvPairs(file: string): Array<[string, string, string]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`load: --host-tz ${file}: ${(err as Error).message}`);
  }
  const pairs: Array<[string, string, string]> = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || (i === 0 && line.toLowerCase() === 'host,time_zone')) return;
    // a host name may hold a comma, a zone never does
    const comma = line.lastIndexOf(',');
    if (comma <= 0) throw new UsageError(`load: --host-tz ${file} line ${i + 1}: want host,time_zone, got '${line}'`);
    pairs.push([line.slice(0, comma).trim(), line.slice(comma + 1).trim(), `${file} line ${i + 1}`]);
  });
  return pairs;
}

/** The zones the `--host-tz` values give, host → IANA zone. */
export function parseHostTimeZones(values: readonly string[]): Map<string, string> {
  const zones = new Map<string, string>();
  for (const value of values) {
    const isFile = !value.includes('=') || (existsSync(value) && statSync(value).isFile());
    let pairs: Array<[string, string, string]>;
    if (isFile) pairs = csvPairs(value);
    else {
      const eq = value.lastIndexOf('=');
      if (eq <= 0 || eq === value.length - 1) throw new UsageError(`load: --host-tz wants ${SHAPE}, got '${value}'`);
      pairs = [[value.slice(0, eq), value.slice(eq + 1), value]];
    }
    for (const [host, zone, where] of pairs) {
      const known = zoneOf(host, zone, where);
      const earlier = zones.get(host);
      if (earlier !== undefined && earlier !== known)
        throw new UsageError(`load: --host-tz gives host ${host} two zones, ${earlier} and ${known}`);
      zones.set(host, known);
    }
  }
  return zones;
}
