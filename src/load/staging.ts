/**
 * Copies the members a load is about to read out of their archive (or encoded collection folder) into the
 * host's private folder, under their logical paths, where the unchanged readers read them. Only members
 * some store matched are copied, and only for the partitions read again. A member that cannot be read
 * (its stream fails midway, the archive broke or changed since it was listed) leaves its source's files
 * and becomes a discovery problem of its store: a `parser:` row and a `files` entry naming the archive
 * and the member. A member that cannot be written (the private folder full or failing) or goes beyond a
 * staging limit (evidence/staging-limits.ts) is an own fault: it ends the load before any partition of
 * its host is written.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { rethrowOwnFault } from '../core/own-fault.js';
import { memberText, type Source } from '../core/row.js';
import type { DiscoveryProblem, HostImage } from '../discover/discover.js';
import { copyMembers, type MemberCopy } from '../evidence/archive.js';
import type { StagingLimits } from '../evidence/staging-limits.js';
import { releaseStaging } from './collections.js';

/** The partitions of one host to read, whose sources and problems staging may change. */
export interface StagedPartition {
  host: string;
  sources: Source[];
  problems: DiscoveryProblem[];
}

/**
 * When each host's members are copied out and its folder removed: a host is staged when the first job
 * holding one of its partitions starts, and released once its last partition is written, so the
 * temporary folder holds the members of the hosts being written, not of every changed archive at once.
 * A host with nothing to read again is released at once.
 */
export class HostStaging {
  private readonly partitions = new Map<string, StagedPartition[]>();
  private readonly left = new Map<string, number>();
  private readonly staged = new Map<string, Promise<void>>();
  /** The images by host: looked up per job and per partition written, so never a scan of the fleet's images. */
  private readonly images = new Map<string, HostImage[]>();

  constructor(
    images: readonly HostImage[],
    planned: readonly StagedPartition[],
    private readonly limits: StagingLimits,
    /** Told each member that could not be read, as discovery's problems are (a progress line). */
    private readonly onProblem: (image: HostImage, problem: DiscoveryProblem) => void,
  ) {
    for (const p of planned) {
      const list = this.partitions.get(p.host);
      if (list === undefined) this.partitions.set(p.host, [p]);
      else list.push(p);
    }
    for (const [host, list] of this.partitions) this.left.set(host, list.length);
    for (const image of images) {
      const same = this.images.get(image.host);
      if (same === undefined) this.images.set(image.host, [image]);
      else same.push(image);
      if (!this.partitions.has(image.host)) releaseStaging(image);
    }
  }

  /** Copies out the members of every host of `job` not staged yet (once per host, whoever asks first). */
  async stage(job: readonly StagedPartition[]): Promise<void> {
    const hosts = new Set(job.map((p) => p.host));
    await Promise.all(
      [...hosts].map((host) => {
        let done = this.staged.get(host);
        if (done === undefined) {
          const image = this.images.get(host)?.[0];
          done = image
            ? stageMembers(image, this.partitions.get(host) ?? [], this.limits, (problem) => this.onProblem(image, problem))
            : Promise.resolve();
          this.staged.set(host, done);
        }
        return done;
      }),
    );
  }

  /** One partition of `host` is written; its folder goes with the last. */
  written(host: string): void {
    const left = (this.left.get(host) ?? 1) - 1;
    this.left.set(host, left);
    if (left === 0) for (const image of this.images.get(host) ?? []) releaseStaging(image);
  }
}

/** Copies the members of `partitions` (all of one collection image) into its staging folder; throws an own fault. */
export async function stageMembers(
  image: HostImage,
  partitions: readonly StagedPartition[],
  limits: StagingLimits,
  onProblem: (problem: DiscoveryProblem) => void,
): Promise<void> {
  const collection = image.collection;
  if (!collection?.listing) return;
  const copies: MemberCopy[] = [];
  const bySource = new Map<string, { source: Source; partition: StagedPartition; rel: string }>();
  for (const partition of partitions) {
    for (const source of partition.sources) {
      for (const file of source.files) {
        const rel = path.relative(collection.stagingRoot, file).split(path.sep).join('/');
        const member = collection.listing.files.get(rel);
        const name = member?.name ?? rel;
        if (bySource.has(name)) continue;
        bySource.set(name, { source, partition, rel });
        copies.push({ name, dest: file, mtime_ms: member?.mtime_ms ?? null });
      }
    }
  }
  if (copies.length === 0) return;
  let failed: Map<string, string>;
  try {
    failed = await copyMembers(collection.archive.path, collection.archive.format, copies, {
      limits,
      tempRoot: path.dirname(collection.stagingRoot),
      ...(collection.password === undefined ? {} : { password: collection.password }),
    });
  } catch (err) {
    rethrowOwnFault(err);
    // the archive broke after its listing: every member not copied whole fails with it
    failed = new Map();
    for (const copy of copies) if (!existsSync(copy.dest)) failed.set(copy.name, (err as Error).message);
  }
  for (const [name, error] of failed) {
    const at = bySource.get(name);
    if (!at) continue;
    const file = path.join(collection.stagingRoot, ...at.rel.split('/'));
    at.source.files = at.source.files.filter((f) => f !== file);
    const problem: DiscoveryProblem = {
      host: image.host,
      store: at.source.store,
      file,
      message: `archive member not read (${memberText(collection.archive.path, name)}): ${error}`,
    };
    at.partition.problems.push(problem);
    onProblem(problem);
  }
}
