/**
 * The nightly job (issue 28.3, deploy/): the command line of deploy/clinetrail-nightly.service's
 * ExecStart, with its paths mapped to a work folder and `clinetrail-nightly` installed by deploy/install.sh,
 * run as systemd would (a PATH of the system's folders and the install's). The cron line runs the same
 * command with the same arguments. Run twice on the demo fleet: each run loads, hunts, writes the report,
 * the Timesketch lines and the Parquet parts, exits 0 and logs only JSON lines; the second run reads no
 * evidence again and gives the same warehouse and the same exports. A host image that cannot be read ends
 * the job with 5 after every step ran; a missing DEST with 2. The exit codes are the table of
 * docs/NIGHTLY.md.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, workDir } from '../hostile/harness.js';

const DEPLOY = path.join(REPO, 'deploy');
const work = workDir('nightly');
const prefix = path.join(work, 'prefix');
const fleet = path.join(REPO, 'fixtures', 'fleet');
const out = path.join(work, 'warehouse');
const dest = path.join(work, 'reports');

/** The unit's ExecStart, and the paths it names mapped to the work folder. */
const service = readFileSync(path.join(DEPLOY, 'clinetrail-nightly.service'), 'utf8');
const execStart = (/^ExecStart=(.+)$/m.exec(service)?.[1] ?? '').split(' ');
const mapped = (paths: Record<string, string>) =>
  execStart.map((a) =>
    a === '/usr/local/bin/clinetrail-nightly' ? path.join(prefix, 'bin', 'clinetrail-nightly') : (paths[a] ?? a),
  );
const PATHS = { '/srv/clinetrail/fleet': fleet, '/var/lib/clinetrail/warehouse': out, '/var/lib/clinetrail/reports': dest };

interface Job {
  code: number | null;
  stdout: string;
  log: Record<string, unknown>[];
}

/** Runs the job's command line as systemd would: its PATH, no terminal. */
function runJob(args: string[]): Job {
  const r = spawnSync(args[0], args.slice(1), {
    env: { PATH: '/usr/bin:/bin', HOME: work, TZ: 'UTC' },
    encoding: 'utf8',
    timeout: 600_000,
  });
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  // every line of the log is one JSON object
  const log = lines.map((l) => {
    expect(() => JSON.parse(l), l).not.toThrow();
    return JSON.parse(l) as Record<string, unknown>;
  });
  return { code: r.status, stdout: r.stdout, log };
}

/** The job's own events: each step's exit code, then the job's. */
const steps = (job: Job) =>
  job.log.filter((e) => e.command === 'nightly').map((e) => (e.event === 'step' ? [e.step, e.exit] : [e.event, e.exit]));

const sql = async (text: string) => (await queryWarehouse(out, text, { allowRead: [dest] })).rows;

/** What a run leaves: the warehouse's events, the Timesketch file, the Parquet parts' rows. */
async function outputs() {
  return {
    events: await sql('select row_id::varchar, host, timestamp_utc, text from events'),
    timesketch: readFileSync(path.join(dest, 'timesketch.jsonl'), 'utf8'),
    parquet: await sql(`select * from read_parquet('${dest}/events/*.parquet')`),
    report: readFileSync(path.join(dest, 'report.html'), 'utf8').length > 0,
    dest: readdirSync(dest).sort(),
  };
}

const ALL_DONE = [
  ['load', 0],
  ['hunt', 0],
  ['report', 0],
  ['export-timesketch', 0],
  ['export-parquet', 0],
  ['job', 0],
];

beforeAll(() => {
  assertBuilt();
  mkdirSync(dest, { recursive: true });
  const r = spawnSync('sh', [path.join(DEPLOY, 'install.sh'), prefix], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`install.sh failed: ${r.stderr}`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the nightly job (deploy/clinetrail-nightly.service, .timer, .cron)', () => {
  it('the cron line runs the command and arguments of the service', () => {
    const cron = readFileSync(path.join(DEPLOY, 'clinetrail-nightly.cron'), 'utf8');
    const line = cron.split('\n').find((l) => /^\d/.test(l)) ?? '';
    const fields = line.split(/\s+/);
    // minute hour day month weekday user command...
    expect(fields.slice(0, 6)).toEqual(['30', '2', '*', '*', '*', 'clinetrail']);
    const command = fields.slice(6, fields.indexOf('>>/var/log/clinetrail/nightly.jsonl'));
    expect(command).toEqual(['clinetrail-nightly', ...execStart.slice(1)]);
    expect(/^PATH=.*\/usr\/local\/bin/m.test(cron)).toBe(true);
    const timer = readFileSync(path.join(DEPLOY, 'clinetrail-nightly.timer'), 'utf8');
    expect(timer).toMatch(/^OnCalendar=\*-\*-\* 02:30:00$/m);
  });

  it('run twice on a fleet: load, hunt, report, exports, exit 0; the second run reads nothing again and gives the same outputs', async () => {
    const first = runJob(mapped(PATHS));
    expect(steps(first), JSON.stringify(first.log.slice(-8))).toEqual(ALL_DONE);
    expect(first.stdout).toBe('');
    const once = await outputs();
    const [[events, dated]] = await sql('select count(*)::INTEGER, count(timestamp_utc)::INTEGER from events');
    // every event: an undated one at its file's modification time
    expect(once.timesketch.trimEnd().split('\n')).toHaveLength(Number(events));
    expect(once.parquet).toHaveLength(Number(events));
    expect(once.dest).toEqual(['events', 'report.html', 'timesketch.jsonl']);
    const [[findings]] = await sql('select count(*)::INTEGER from findings');
    expect(first.log.find((e) => e.command === 'hunt' && e.event === 'done')).toMatchObject({ findings });
    // every clinetrail step's summary is in the log, with its figures
    expect(first.log.find((e) => e.command === 'export' && e.format === 'timesketch')).toMatchObject({
      rows: events,
      undated_left_out: 0,
      undated_at_file_time: Number(events) - Number(dated),
    });
    expect(first.log.find((e) => e.command === 'export' && e.format === 'parquet-dataset')).toMatchObject({ rows: events });

    const second = runJob(mapped(PATHS));
    expect(steps(second)).toEqual(ALL_DONE);
    const run = second.log.find((e) => e.event === 'done' && e.command === undefined)?.run as Record<string, unknown>;
    expect(run).toMatchObject({ files_read: 0, partitions_written: 0 });
    expect(await outputs()).toEqual(once);
  }, 900_000);

  it('a host image that cannot be read: every step runs, the job exits 5; a missing DEST: exit 2', () => {
    const broken = path.join(work, 'fleet-broken');
    cpSync(path.join(fleet, 'mac-bob'), path.join(broken, 'mac-bob'), { recursive: true });
    writeFileSync(path.join(broken, 'ws-broken.zip'), 'PK\x03\x04 not a zip');
    const five = runJob(mapped({ ...PATHS, '/srv/clinetrail/fleet': broken, '/var/lib/clinetrail/warehouse': `${out}-2` }));
    expect(steps(five)).toEqual([['load', 5], ...ALL_DONE.slice(1, -1), ['job', 5]]);
    expect(five.log.at(-1)).toMatchObject({ level: 'warning' });

    const two = runJob(mapped({ ...PATHS, '/var/lib/clinetrail/reports': path.join(work, 'no-such-folder') }));
    expect(steps(two)).toEqual([
      ['load', 0],
      ['hunt', 0],
      ['report', 2],
      ['export-timesketch', 2],
      ['export-parquet', 2],
      ['job', 2],
    ]);
    // each refusal is the step's own error event, naming the command and the path
    const errors = two.log.filter((e) => e.event === 'error').map((e) => String(e.message).split(' --to ')[0]);
    expect(errors).toEqual(['report:', 'export:', 'export:']);
  }, 900_000);
});
