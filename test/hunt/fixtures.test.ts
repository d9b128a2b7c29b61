/**
 * Each hunt against its positive and negative fixtures (fixtures/hunts, README there), loaded together
 * by the real load and hunted by the real `clinetrail hunt`. What a hunt must find is read from the
 * fixture files, not from a run: every plant of hunt H carries the marker `PLANT-<H>-<n>` in the record,
 * the path of its home, or a name the row prints (an MCP server, a bucket), and every near miss of the
 * negative host `neg-<H>` a `NEAR-<H>-<n>`. Each hunt must give exactly one finding per planted marker of
 * its own, and no finding that names none (ordinary work and near misses are never findings).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHuntPack } from '../../src/hunt/pack.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { cli, type StoredFinding, storedFindings, tempOut } from '../helpers/hunt-run.js';

const FLEET = path.resolve('fixtures/hunts');
const HUNT_IDS = (await loadHuntPack()).map((h) => h.id);
const temp = tempOut('hunts');
/** The hunts of the pack that read the agent's commands (sql/44, sql/45). */
const COMMAND_HUNTS = [
  'unapproved-destructive-command',
  'credential-access',
  'data-exfiltration',
  'agent-persistence',
  'prompt-injection',
];
const FORKS = ['roo-code', 'kilo-code'];
const hosts = fs.readdirSync(FLEET).filter((n) => fs.statSync(path.join(FLEET, n)).isDirectory());
let findings: StoredFinding[] = [];

/** Every `<PREFIX>-<hunt id>-<n>` in the fixture tree, in file paths and file contents, per hunt id. */
function markers(prefix: 'PLANT' | 'NEAR'): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>(HUNT_IDS.map((id) => [id, new Set<string>()]));
  const pattern = new RegExp(`${prefix}-([a-z]+(?:-[a-z]+)*)-(\\d+)`, 'gi');
  const add = (text: string) => {
    for (const m of text.matchAll(pattern)) found.get(m[1].toLowerCase())?.add(`${prefix}-${m[1].toLowerCase()}-${m[2]}`);
  };
  for (const rel of fs.readdirSync(FLEET, { recursive: true }) as string[]) {
    const file = path.join(FLEET, rel);
    add(rel);
    if (fs.statSync(file).isFile() && !rel.endsWith('README.md')) add(fs.readFileSync(file, 'latin1'));
  }
  return found;
}

/** The markers of hunt `id` a finding names. */
function named(f: StoredFinding, id: string): string[] {
  const pattern = new RegExp(`PLANT-${id}-(\\d+)(?!\\d)`, 'gi');
  return [...new Set([...f.identity.matchAll(pattern)].map((m) => `PLANT-${id}-${m[1]}`))];
}

beforeAll(async () => {
  const load = await cli(['load', '--fleet', FLEET, '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  const hunt = await cli(['hunt', '--out', temp.out]);
  expect(hunt.code, hunt.stderr).toBe(0);
  findings = await storedFindings(temp.out);
});

afterAll(() => temp.remove());

describe('the hunt fixtures (fixtures/hunts)', () => {
  it('have a positive and a negative host for every hunt of the pack, and load with no parser row but the planted one', async () => {
    for (const id of HUNT_IDS) {
      expect(hosts.filter((h) => h.startsWith(`pos-${id}`)).length, id).toBeGreaterThan(0);
      expect(hosts, id).toContain(`neg-${id}`);
    }
    // the copy of fixtures/tasks-db's tasks.db keeps that fixture's record whose model selection is not JSON
    const parser = await queryWarehouse(temp.out, "select host, source_file from events where kind = 'parser'");
    expect(parser.rows).toEqual([['pos-safety-turned-off', 'home/PLANT-safety-turned-off-10/.cline/data/db/tasks.db']]);
  });

  it('has findings that all point at rows of events', () => {
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => !f.in_events)).toEqual([]);
  });

  const planted = markers('PLANT');
  const near = markers('NEAR');

  describe.each(HUNT_IDS.map((id) => [id]))('%s', (id) => {
    it('finds each planted record exactly once, and nothing else', () => {
      const mine = findings.filter((f) => f.hunt_id === id);
      expect(planted.get(id)?.size, `no plant of ${id} in the fixtures`).toBeGreaterThan(0);
      expect(mine.filter((f) => named(f, id).length === 0).map((f) => `${f.host}: ${f.summary}`)).toEqual([]);
      expect(mine.flatMap((f) => named(f, id)).sort()).toEqual([...(planted.get(id) ?? [])].sort());
    });

    it('finds nothing on its negative hosts, whose near misses are loaded', async () => {
      const negative = (host: string) => host === `neg-${id}` || host.startsWith(`neg-${id}-`);
      expect(findings.filter((f) => f.hunt_id === id && negative(f.host)).map((f) => f.summary)).toEqual([]);
      expect(near.get(id)?.size, `no near miss of ${id} in the fixtures`).toBeGreaterThan(0);
      const { rows } = await queryWarehouse(
        temp.out,
        `select host, count(*) from events where (host = 'neg-${id}' or host like 'neg-${id}-%')
           and (text ilike '%NEAR-${id}-%' or source_file ilike '%NEAR-${id}-%') group by host`,
      );
      const loaded = new Set(rows.map((r) => r[0] as string));
      expect(hosts.filter(negative).filter((h) => !loaded.has(h))).toEqual([]);
    });
  });

  // The command hunts run on every agent of the family: each has a positive and a negative host per fork
  // (`pos-<hunt>-<agent>`, `neg-<hunt>-<agent>`: Roo Code's tasks in Code on Linux, Kilo Code's in Cursor on
  // macOS), and what they find there is that agent's record.
  describe.each(COMMAND_HUNTS.flatMap((id) => FORKS.map((agent) => [id, agent])))('%s on %s', (id, agent) => {
    it("finds the fork's planted record on its positive host, as that agent's, and has its negative host", () => {
      const mine = findings.filter((f) => f.hunt_id === id && f.host === `pos-${id}-${agent}`);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.map((f) => f.agent)).toEqual(mine.map(() => agent));
      expect(hosts).toContain(`neg-${id}-${agent}`);
    });
  });

  it('gives the findings on Cline hosts the agent cline', () => {
    const cline = findings.filter((f) => !FORKS.some((a) => f.host.endsWith(`-${a}`)));
    expect(cline.length).toBeGreaterThan(0);
    expect(cline.filter((f) => f.agent !== 'cline').map((f) => `${f.host}: ${f.summary}`)).toEqual([]);
  });
});
