/**
 * `load --shard K/N`: which hosts a shard load takes. A host belongs to shard `uint32(sha256(host)[0..4]) mod
 * N + 1` (the first four bytes of the SHA-256 of its UTF-8 name, big-endian): the same host lands in the
 * same shard for a given N on every machine and Node version, whatever order the images are listed in.
 * sql/36_hosts.sql computes the same number in DuckDB (`sha256` and a hex cast); change both together.
 */
import { createHash } from 'node:crypto';

/** Shard K of N, 1-based like vitest's, Jest's and Playwright's `--shard=K/N`. */
export interface Shard {
  index: number;
  count: number;
}

/** The `K/N` text of a shard. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The `--shard` text as a shard, or the one-line reason it is refused: K and N whole numbers written in
 * digits, N >= 1, 1 <= K <= N.
 */
export function parseShard(text: string): Shard | string {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text);
  if (m === null) return `--shard wants K/N (shard K of N, e.g. 2/4), got '${text}'`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(count) || count < 1) return `--shard wants N >= 1 in K/N, got '${text}'`;
  if (!Number.isSafeInteger(index) || index < 1 || index > count) return `--shard wants 1 <= K <= N in K/N, got '${text}'`;
  return { index, count };
}

/** The shard (1..count) host `host` belongs to when the fleet is split in `count`. */
export function shardOfHost(host: string, count: number): number {
  return shardOfWord(createHash('sha256').update(host, 'utf8').digest().readUInt32BE(0), count);
}

/** The shard (1..count) of a host whose SHA-256 starts with the 4 bytes `word` (big-endian). */
export function shardOfWord(word: number, count: number): number {
  return (word % count) + 1;
}

/** Whether `host` is loaded by `shard`; every host is when there is no shard. */
export function inShard(host: string, shard: Shard | null | undefined): boolean {
  return shard == null || shardOfHost(host, shard.count) === shard.index;
}
