/**
 * One exit code for every argument error of every command (issue 24 point 8): each command run by the
 * built CLI (dist/, in this process as the harness runs it; the cases of the issue, a missing `--out`
 * for each command and the `--where` union, also as `node dist/src/cli/main.js` processes, so the
 * process's own exit code is checked) with each bad argument exits 2, prints
 * nothing on stdout and exactly one `clinetrail: ` line on stderr, and writes nothing: the loaded OUT
 * keeps every byte, a missing OUT does not appear, an empty folder stays empty. Bad `--out`s are the same
 * for every command that reads a warehouse: empty, missing, a file, a folder that holds no warehouse
 * (for `mcp`, which serves an OUT before its first load, not an error: docs/MCP.md; for `models`,
 * a folder no load wrote), an OUT of the old layout, given twice. Then each command's own arguments,
 * among them an export `--where` that is more than one expression (`1=1) union all (select * from
 * events`, a `;`, comment tricks), a `--to` that is a FIFO, and a load whose OUT is inside its fleet
 * folder or a `--host` image.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import { assertBuilt, type CliRun, describeRun, expectArgumentError, runCli, snapshotTree, workDir } from './harness.js';

const work = workDir('arguments');
const FLEET = fixture('fleet');
const out = path.join(work, 'out');
const missing = path.join(work, 'missing');
const file = path.join(work, 'a-file');
const empty = path.join(work, 'empty');
const oldLayout = path.join(work, 'old-layout');
const dest = path.join(work, 'dest');
const fifo = path.join(dest, 'fifo');
/** A copy of the demo fleet, for the loads asked to write OUT inside it. */
const evidence = path.join(work, 'evidence');

/** The commands that read a warehouse, each with the arguments it needs besides `--out`. */
const READERS: Record<string, (o: string) => string[]> = {
  query: (o) => ['query', '--out', o, 'select 1'],
  export: (o) => ['export', '--out', o, '--format', 'csv', '--to', path.join(dest, 'x.csv')],
  hunt: (o) => ['hunt', '--out', o],
  report: (o) => ['report', '--out', o, '--to', path.join(dest, 'r.html')],
  mcp: (o) => ['mcp', '--out', o],
  models: (o) => ['models', '--out', o],
};

/** [case, arguments, what the one line says]. */
type Case = [string, string[], RegExp];

const OUT_CASES: Case[] = Object.entries(READERS).flatMap(([command, args]): Case[] => [
  [`${command} --out ""`, args(''), new RegExp(`^${command}: --out wants the output folder of a load, got ''$`)],
  [`${command} --out missing`, args(missing), new RegExp(`^${command}: --out .*/missing not found$`)],
  [`${command} --out a file`, args(file), new RegExp(`^${command}: --out .*/a-file is not a folder$`)],
  [`${command} --out old layout`, args(oldLayout), /holds the old parquet\/events\/host=H\/store=S layout; run clinetrail load/],
  [`${command} --out twice`, [...args(out), '--out', out], new RegExp(`^${command}: --out given more than once$`)],
  [`${command} --bogus`, [...args(out), '--bogus'], /^Unknown argument: bogus \(see clinetrail --help\)$/],
  ...(command === 'mcp'
    ? []
    : ([
        [
          `${command} --out a folder with no warehouse`,
          args(empty),
          command === 'models'
            ? /^models: --out .*\/empty holds no load \(no state\/runs\); run clinetrail load --out /
            : new RegExp(`^${command}: no warehouse at .*/empty/fleet\\.duckdb; run clinetrail load --out `),
        ],
      ] as Case[])),
]);

const exportArgs = (...extra: string[]) => [
  'export',
  '--out',
  out,
  '--format',
  'csv',
  '--to',
  path.join(dest, 'e.csv'),
  ...extra,
];
const WHERE = /^export: --where must be one condition on the events view: /;

const COMMAND_CASES: Case[] = [
  [
    'load --concurrency 0',
    ['load', '--fleet', FLEET, '--out', path.join(work, 'new-out'), '--concurrency', '0'],
    /--concurrency/,
  ],
  ['load --fleet missing', ['load', '--fleet', missing, '--out', path.join(work, 'new-out')], /fleet folder not found/],
  ['load --shard 5/4', ['load', '--fleet', FLEET, '--out', path.join(work, 'new-out'), '--shard', '5/4'], /--shard/],
  ['load --out a file', ['load', '--fleet', FLEET, '--out', file], /is not a folder$/],
  ['load without --out', ['load', '--fleet', FLEET], /Missing required argument: out/],
  [
    'load --out inside the fleet',
    ['load', '--fleet', evidence, '--out', path.join(evidence, 'out')],
    /^load: --out .*\/evidence\/out is inside .*\/evidence, an input of this load \(the evidence\)/,
  ],
  [
    'load --out inside a --host image',
    ['load', '--host', `h=${path.join(evidence, 'lnx-u01')}`, '--out', path.join(evidence, 'lnx-u01', 'o')],
    /^load: --out .*\/lnx-u01\/o is inside .*\/evidence\/lnx-u01, an input of this load/,
  ],
  ['query without SQL', ['query', '--out', out], /Not enough non-option arguments/],
  ['query --format xml', ['query', '--out', out, '--format', 'xml', 'select 1'], /Invalid values/],
  ['query --allow-read missing', ['query', '--out', out, '--allow-read', missing, 'select 1'], /--allow-read .* is not a folder/],
  ['export --where ) union all (', exportArgs('--where', '1=1) union all (select * from events'), WHERE],
  ['export --where ) order by (', exportArgs('--where', "host = 'x') order by (1"), WHERE],
  ['export --where ; drop', exportArgs('--where', '1=1; drop table events; select (1'), WHERE],
  ['export --where ; select', exportArgs('--where', '1=1); select (1'), WHERE],
  ['export --where ) -- comment', exportArgs('--where', '1=1) --'), WHERE],
  ['export --where unclosed /*', exportArgs('--where', '1=1 /*'), WHERE],
  ['export --where /* */ union', exportArgs('--where', '1=1 /* */) union all (select * from events /* */'), WHERE],
  ['export --where ""', exportArgs('--where', ''), WHERE],
  ['export --where with --sql', exportArgs('--where', 'true', '--sql', 'select 1'), /mutually exclusive|conflicts/i],
  ['export --format xlsx', ['export', '--out', out, '--format', 'xlsx', '--to', path.join(dest, 'e.x')], /Invalid values/],
  ['export without --to', ['export', '--out', out, '--format', 'csv'], /Missing required argument: to/],
  [
    'export --to in a missing folder',
    ['export', '--out', out, '--format', 'csv', '--to', path.join(missing, 'e.csv')],
    /does not exist/,
  ],
  ['export --force --to a FIFO', ['export', '--out', out, '--format', 'csv', '--to', fifo, '--force'], /is a FIFO/],
  ['export --allow-read missing', exportArgs('--allow-read', missing), /--allow-read .* is not a folder/],
  ['hunt --id unknown', ['hunt', '--out', out, '--id', 'no-such-hunt'], /unknown hunt id 'no-such-hunt'/],
  ['hunt without --out', ['hunt'], /give --out OUT/],
  ['hunt --format xml', ['hunt', '--out', out, '--format', 'xml'], /Invalid values/],
  ['report without --to', ['report', '--out', out], /Missing required argument: to/],
  ['report --to in a missing folder', ['report', '--out', out, '--to', path.join(missing, 'r.html')], /does not exist/],
  ['report --force --to a FIFO', ['report', '--out', out, '--to', fifo, '--force'], /is a FIFO/],
  ['mcp without --out', ['mcp'], /Missing required argument: out/],
  ['models without --out', ['models'], /Missing required argument: out/],
];

/** The cases run as processes of their own too (a CLI start costs ~0.6 s of CPU: not all 70). */
const AS_PROCESS = /--out missing$|^export --where \) union all \($/;

let outBefore: Record<string, string>;
let evidenceBefore: Record<string, string>;
const runs = new Map<string, CliRun>();

beforeAll(async () => {
  assertBuilt();
  const load = await runCli(['load', '--fleet', FLEET, '--out', out, '--quiet']);
  expect(load.code, describeRun(load)).toBe(0);
  writeFileSync(file, 'not a folder\n');
  cpSync(FLEET, evidence, { recursive: true });
  evidenceBefore = snapshotTree(evidence);
  mkdirSync(empty);
  mkdirSync(path.join(oldLayout, 'parquet', 'events', 'host=x'), { recursive: true });
  mkdirSync(dest);
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) throw new Error('mkfifo failed');
  outBefore = snapshotTree(out);
  for (const [name, args] of [...OUT_CASES, ...COMMAND_CASES])
    runs.set(name, await runCli(args, { child: AS_PROCESS.test(name), timeoutMs: 120_000 }));
}, 600_000);

describe.each([
  ['a bad --out, for every command that reads a warehouse', OUT_CASES],
  ["each command's own bad arguments", COMMAND_CASES],
])('%s: exit 2, nothing on stdout, one clinetrail: line', (_title, cases) => {
  it.each(cases)('%s', (name, _args, why) => expectArgumentError(runs.get(name)!, why));
});

it('writes nothing: the loaded OUT keeps every byte, no OUT appears, nothing is written at --to', () => {
  expect(snapshotTree(out), 'the loaded OUT is unchanged').toEqual(outBefore);
  expect(snapshotTree(evidence), 'no OUT appears in the evidence').toEqual(evidenceBefore);
  expect(readdirSync(empty), 'the folder with no warehouse stays empty').toEqual([]);
  expect(existsSync(missing), 'a missing OUT does not appear').toBe(false);
  expect(existsSync(path.join(work, 'new-out')), 'a refused load makes no OUT').toBe(false);
  expect(readdirSync(dest), 'nothing written where --to points').toEqual(['fifo']);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));
