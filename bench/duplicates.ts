/**
 * The duplicate-rule measure of `node dist/bench/run.js` (issue 9 point 3): a full load of one host whose
 * CLI sessions repeat one prompt (`continue`) with a prompt history of the same prompt, against the same
 * layout with every prompt distinct (bench/repeated-prompts.ts). Both give the same rows and drop the same
 * number of history lines, so the difference is what groups of identical texts cost the duplicate rule.
 * Sizes: 10 sessions x 100 prompts + 1,000 history lines (the case), and at full size also
 * 10 x 1,000 + 10,000 (the prompt history reader's line limit). Each load is its own process under
 * `/usr/bin/time -v`, into a fresh OUT; the order alternates per round. Fleets go under D/duplicates/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { median } from './measure.js';
import { writeRepeatedPromptsHost } from './repeated-prompts.js';
import { loadFresh, stats, type LoadSample, type ScalingContext } from './scaling.js';

type Variant = 'repeated' | 'distinct';

interface Size {
  sessions: number;
  promptsPerSession: number;
  historyLines: number;
}

export interface DuplicateCase extends Size {
  label: string;
  bytes: number;
  repeated: ReturnType<typeof stats> & { dropped: number | null };
  distinct: ReturnType<typeof stats> & { dropped: number | null };
  /** Median over rounds of wall(repeated) / wall(distinct). */
  wall_ratio: number | null;
}

export interface DuplicatesResult {
  cases: DuplicateCase[];
  samples: Array<LoadSample & { label: string; variant: Variant; dropped: number | null }>;
}

/** The duplicate count of a load's summary line (`..., N duplicate(s) dropped, ...`). */
function droppedOf(summary: string): number | null {
  const m = /(\d+) duplicate\(s\) dropped/.exec(summary);
  return m ? Number(m[1]) : null;
}

export async function duplicateRule(ctx: ScalingContext): Promise<DuplicatesResult> {
  const sizes: Size[] = [{ sessions: 10, promptsPerSession: 100, historyLines: 1000 }];
  if (!ctx.small) sizes.push({ sessions: 10, promptsPerSession: 1000, historyLines: 10_000 });
  const cases: DuplicateCase[] = [];
  const samples: DuplicatesResult['samples'] = [];
  for (const size of sizes) {
    const label = `${size.sessions} x ${size.promptsPerSession} prompts + ${size.historyLines} history lines`;
    const root = path.join(ctx.dir, 'duplicates', `${size.sessions}x${size.promptsPerSession}-${size.historyLines}`);
    fs.rmSync(root, { recursive: true, force: true });
    const fleets = {} as Record<Variant, string>;
    let bytes = 0;
    for (const variant of ['repeated', 'distinct'] as const) {
      fleets[variant] = path.join(root, variant);
      bytes = writeRepeatedPromptsHost(path.join(fleets[variant], 'h-prompts'), {
        ...size,
        distinct: variant === 'distinct',
      }).bytes;
    }
    const ratios: number[] = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const order: Variant[] = round % 2 ? ['repeated', 'distinct'] : ['distinct', 'repeated'];
      const wall: Partial<Record<Variant, number>> = {};
      for (const variant of order) {
        const s = await loadFresh(ctx, fleets[variant], path.join(root, `out-${variant}`), round);
        const dropped = droppedOf(s.detail);
        ctx.log(
          `round ${round}: duplicates ${label}, ${variant}: ${s.wall_s.toFixed(2)} s, peak RSS ${s.peak_rss_mb?.toFixed(0)} MB, ${dropped} dropped`,
        );
        samples.push({ ...s, label, variant, dropped });
        wall[variant] = s.wall_s;
      }
      ratios.push(wall.repeated! / wall.distinct!);
    }
    const of = (variant: Variant) => samples.filter((s) => s.label === label && s.variant === variant);
    const dropped = (variant: Variant) => median(of(variant).map((s) => s.dropped ?? NaN));
    cases.push({
      ...size,
      label,
      bytes,
      repeated: { ...stats(of('repeated')), dropped: dropped('repeated') },
      distinct: { ...stats(of('distinct')), dropped: dropped('distinct') },
      wall_ratio: median(ratios),
    });
  }
  return { cases, samples };
}
