/**
 * A fleet for the tests of a split (`load --shard K/N`): the demo fleet's hosts (fixtures/fleet) plus
 * copies of some under names chosen so that each of the N shards gets enough hosts, by the definition of
 * the assignment computed here (not the implementation's function): the first four bytes of
 * sha256(host name), big-endian, mod N, plus 1.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from './source.js';

export const DEMO_FLEET = path.join(REPO, 'fixtures', 'fleet');

/** The shard of a host by the definition. */
export function shardOf(host: string, n: number): number {
  return (createHash('sha256').update(Buffer.from(host, 'utf8')).digest().readUInt32BE(0) % n) + 1;
}

/**
 * The demo hosts and, for each shard that has fewer than `atLeast` of them, copies of one (`<host>-copy<i>`,
 * the first names that land there), as host -> demo host it copies.
 */
export function splitFleetHosts(n: number, atLeast = 1): Map<string, string> {
  const demo = readdirSync(DEMO_FLEET, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const hosts = new Map(demo.map((h) => [h, h] as const));
  for (let k = 1; k <= n; k++) {
    const from = demo[k % demo.length];
    let i = 1;
    while ([...hosts.keys()].filter((h) => shardOf(h, n) === k).length < atLeast) {
      while (shardOf(`${from}-copy${i}`, n) !== k) i++;
      hosts.set(`${from}-copy${i}`, from);
      i++;
    }
  }
  return hosts;
}

/** Copies the hosts of splitFleetHosts into `fleet`, one folder each. */
export function makeSplitFleet(fleet: string, hosts: ReadonlyMap<string, string>): void {
  for (const [host, from] of hosts) cpSync(path.join(DEMO_FLEET, from), path.join(fleet, host), { recursive: true });
}
