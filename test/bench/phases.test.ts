/** bench/phases.ts: the phases of real loads of the demo fleet, read from their JSON progress. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPhases } from '../../bench/phases.js';
import { runCommandLine } from '../../src/cli/commands.js';
import { captureCommandLine } from '../helpers/command-line.js';

const FLEET = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'fleet');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-phases-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function timedLoad(out: string): Promise<{ stderr: string; wall_s: number }> {
  const t0 = performance.now();
  const r = await captureCommandLine(runCommandLine, ['load', '--fleet', FLEET, '--out', out, '--log-format', 'json']);
  expect(r.code, r.stderr.slice(-500)).toBe(0);
  return { stderr: r.stderr, wall_s: (performance.now() - t0) / 1000 };
}

describe('loadPhases', () => {
  const out = path.join(work, 'out');

  it('gives every phase of a first load, together within its wall time', async () => {
    const first = await timedLoad(out);
    const phases = loadPhases(first.stderr);
    const values = [phases.discovery_s, phases.partitions_s, phases.host_models_s, phases.hunts_s];
    for (const v of values) {
      expect(v).not.toBeNull();
      expect(v).toBeGreaterThanOrEqual(0);
    }
    const sum = values.reduce<number>((a, v) => a + (v ?? 0), 0);
    expect(sum).toBeLessThanOrEqual(first.wall_s);
    // the models and the hunt pack did run: their log lines are there with their own times
    expect(first.stderr).toMatch(/"event":"host-models","hosts":\d+,"ms":\d+/);
    expect(first.stderr).toMatch(/"event":"hunts",/);
  });

  it('gives no model or hunt time to a re-run that changed nothing, which builds neither', async () => {
    const again = loadPhases((await timedLoad(out)).stderr);
    expect(again.partitions_s).not.toBeNull();
    expect(again.host_models_s).toBeNull();
    expect(again.hunts_s).toBeNull();
  });

  it('skips lines that are not its JSON', () => {
    const log = [
      'not json',
      '{"ts":"2026-12-05T10:00:01.000Z","event":"discovered","hosts":1,"partitions":1}',
      '{broken',
      '{"ts":"2026-12-05T10:00:04.500Z","event":"models","rebuilt":true}',
      '{"ts":"2026-12-05T10:00:06.000Z","event":"host-models","hosts":1,"ms":1500}',
      '{"ts":"2026-12-05T10:00:07.000Z","event":"done","run":{"started_at":"2026-12-05T10:00:00.250Z"}}',
    ].join('\n');
    expect(loadPhases(log)).toEqual({ discovery_s: 0.75, partitions_s: 3.5, host_models_s: 1.5, hunts_s: null });
  });
});
