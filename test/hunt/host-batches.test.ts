/**
 * The hunts that look inside one host (`scope: host`) run batch by batch of hosts, each batch in a
 * warehouse of its own (hunt/run.ts, warehouse/host-batch-query.ts). Their findings must be the rows,
 * in the order, that one query per hunt over the whole fleet gives: the fixtures of every hunt
 * (fixtures/hunts, 41 hosts) are hunted as the pack declares, cut into batches of 3 hosts, and with every
 * hunt run over fleet.duckdb as a `fleet` hunt, and the three must agree finding for finding. Where the
 * hosts' models on disk are not those fleet.duckdb reads, every hunt runs on fleet.duckdb.
 */
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostModelsRecordFile } from '../../src/core/model-layout.js';
import { loadHuntPack } from '../../src/hunt/pack.js';
import { type Finding, selectFindings } from '../../src/hunt/run.js';
import { withQueryConnection } from '../../src/warehouse/build.js';
import { cli, tempOut } from '../helpers/hunt-run.js';

const pack = await loadHuntPack();
const temp = tempOut('hunt-batches');
const out = temp.out;

/** The findings of `hunts` on OUT; `hostsPerBatch` cuts the batches; counts the batches' connections. */
async function hunt(hunts: typeof pack, hostsPerBatch?: number): Promise<{ findings: Finding[]; batches: number }> {
  let batches = 0;
  const findings = await withQueryConnection(out, {}, (conn) =>
    selectFindings(out, conn, hunts, {
      hostsPerBatch,
      onConnection: () => {
        batches += 1;
      },
    }),
  );
  return { findings, batches };
}

beforeAll(async () => {
  const load = await cli(['load', '--fleet', 'fixtures/hunts', '--out', out, '--no-hunts']);
  expect(load.code, load.stderr).toBe(0);
});

afterAll(() => temp.remove());

describe('host hunts batch by batch', () => {
  it('the pack declares which hunts look inside one host and which across hosts', () => {
    expect(pack.filter((h) => h.scope === 'fleet').map((h) => h.id)).toEqual(['secret-on-several-hosts']);
    expect(pack.filter((h) => h.scope === 'host').length).toBe(pack.length - 1);
  });

  it('gives the findings one query over the whole fleet gives, in its order, whatever the batches', async () => {
    const asFleet = await hunt(pack.map((h) => ({ ...h, scope: 'fleet' as const })));
    expect(asFleet.batches).toBe(0);
    const declared = await hunt(pack);
    expect(declared.batches).toBe(1);
    const small = await hunt(pack, 3);
    expect(small.batches).toBe(Math.ceil(41 / 3));
    // the fixtures plant findings on hosts of many batches, for host hunts and for the fleet hunt
    const hunted = new Set(asFleet.findings.map((f) => f.hunt_id));
    for (const h of pack) expect(hunted, h.id).toContain(h.id);
    expect(
      new Set(asFleet.findings.filter((f) => f.hunt_id !== 'secret-on-several-hosts').map((f) => f.host)).size,
    ).toBeGreaterThan(6);
    expect(declared.findings).toEqual(asFleet.findings);
    expect(small.findings).toEqual(asFleet.findings);
  }, 300_000);

  it("asks fleet.duckdb itself when the hosts' models on disk are not those it reads", async () => {
    const before = await hunt(pack);
    // a host whose models' record is gone, as after a build that failed half way
    const record = hostModelsRecordFile(out, before.findings[0].host);
    fs.renameSync(record, `${record}.aside`);
    try {
      const after = await hunt(pack, 3);
      expect(after.batches).toBe(0);
      expect(after.findings).toEqual(before.findings);
    } finally {
      fs.renameSync(`${record}.aside`, record);
    }
  }, 300_000);
});
