/**
 * Copies the members a load is about to read out of their archive (or encoded collection folder) into the
 * host's private folder, under their logical paths, where the unchanged readers read them. Only members
 * some store matched are copied, and only for the partitions read again. A member that cannot be copied
 * (its stream fails midway, the archive broke or changed since it was listed) leaves its source's files
 * and becomes a discovery problem of its store: a `parser:` row and a `files` entry naming the archive
 * and the member.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Source } from '../core/row.js';
import type { DiscoveryProblem, HostImage } from '../discover/discover.js';
import { copyMembers, type MemberCopy } from '../evidence/archive.js';

/** The partitions of one host to read, whose sources and problems staging may change. */
export interface StagedPartition {
  sources: Source[];
  problems: DiscoveryProblem[];
}

/** Copies the members of `partitions` (all of one collection image) into its staging folder. */
export async function stageMembers(image: HostImage, partitions: readonly StagedPartition[]): Promise<void> {
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
    failed = await copyMembers(collection.archive.path, collection.archive.format, copies);
  } catch (err) {
    // the archive broke after its listing: every member not copied whole fails with it
    failed = new Map();
    for (const copy of copies) if (!existsSync(copy.dest)) failed.set(copy.name, (err as Error).message);
  }
  for (const [name, error] of failed) {
    const at = bySource.get(name);
    if (!at) continue;
    const file = path.join(collection.stagingRoot, ...at.rel.split('/'));
    at.source.files = at.source.files.filter((f) => f !== file);
    at.partition.problems.push({
      host: image.host,
      store: at.source.store,
      file,
      message: `archive member not read (${collection.archive.path}: ${name}): ${error}`,
    });
  }
}
