/**
 * `clinetrail report` on the homes the released Cline CLIs wrote (fixtures/real-producer, one host per
 * generation): the commands the driver typed (facts.json) are the top commands, and the settings that
 * turn safety off are those the CLIs' own files hold (globalState.json, the 1.x task settings files,
 * cline_mcp_settings.json); the 3.x hub's auto-approving hook answers are counted by SQL of this test.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyHome, corpora } from '../helpers/real-corpus.js';
import { DEFAULT_CAPS } from '../../src/report/data.js';
import { byId, figure, loadFleet, makeReport, type Node, sql, tableHeaders, tableRows } from '../helpers/report-page.js';

const CORPORA = corpora();
let tmp = '';
let out = '';
let doc: Node;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-report-real-'));
  const fleet = path.join(tmp, 'fleet');
  for (const c of CORPORA) copyHome(c, path.join(fleet, c.name));
  out = path.join(tmp, 'out');
  await loadFleet(fleet, out);
  ({ doc } = await makeReport(out, path.join(tmp, 'report.html')));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const readJson = (file: string): Record<string, unknown> | null =>
  fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : null;

describe('the report of the real CLIs', () => {
  it('has one host per generation and the sessions the warehouse holds', async () => {
    expect(figure(doc, 'glance-hosts')).toBe(CORPORA.length);
    const [{ n }] = await sql(
      out,
      'select count(*) as n from (select distinct host, session_id from events where session_id is not null)',
    );
    expect(figure(doc, 'glance-sessions')).toBe(n);
  });

  it('shows the commands the driver had each CLI run, with their runs and hosts', () => {
    const expected = new Map<string, { runs: number; hosts: Set<string> }>();
    for (const c of CORPORA)
      for (const s of c.facts.sessions.filter((s) => !s.deleted))
        for (const { command } of s.commands) {
          const e = expected.get(command) ?? { runs: 0, hosts: new Set<string>() };
          e.runs += 1;
          e.hosts.add(c.name);
          expected.set(command, e);
        }
    // the page lists the most run first, up to its cap; each with the runs and hosts the driver gave it
    const rows = tableRows(byId(doc, 'commands'));
    expect(rows).toHaveLength(Math.min(expected.size, DEFAULT_CAPS.commands));
    for (const r of rows)
      expect(`${r[0]} runs=${r[1]} hosts=${r[2]}`).toBe(
        `${r[0]} runs=${expected.get(r[0])?.runs} hosts=${expected.get(r[0])?.hosts.size}`,
      );
    const least = Math.min(...rows.map((r) => Number(r[1])));
    const shown = new Set(rows.map((r) => r[0]));
    expect([...expected].filter(([cmd, e]) => !shown.has(cmd) && e.runs > least)).toEqual([]);
  });

  it("lists the settings that turn safety off the CLIs' own files hold, as the safety-turned-off hunt finds them", async () => {
    const expected = new Map<string, number>();
    const add = (key: string, n = 1) => expected.set(key, (expected.get(key) ?? 0) + n);
    for (const c of CORPORA) {
      const data = path.join(c.home, '.cline', 'data');
      if (readJson(path.join(data, 'globalState.json'))?.yoloModeToggled === true) add(`${c.name} yoloModeToggled=true`);
      const servers = (readJson(path.join(data, 'settings', 'cline_mcp_settings.json'))?.mcpServers ?? {}) as Record<
        string,
        { autoApprove?: string[]; alwaysAllow?: string[] }
      >;
      for (const [name, server] of Object.entries(servers)) {
        for (const tool of server.autoApprove ?? []) add(`${c.name} mcpServers.${name}.autoApprove=${tool}`);
        for (const tool of server.alwaysAllow ?? []) add(`${c.name} mcpServers.${name}.alwaysAllow=${tool}`);
      }
      const tasks = path.join(data, 'tasks');
      for (const task of fs.existsSync(tasks) ? fs.readdirSync(tasks) : [])
        if (readJson(path.join(tasks, task, 'settings.json'))?.yoloModeToggled === true) add(`${c.name} yoloModeToggled=true`);
    }
    // the corpus holds yolo (1.x) and an MCP tool approved for good in every home
    expect([...expected.keys()].some((k) => k.endsWith('yoloModeToggled=true'))).toBe(true);
    const safety = byId(doc, 'safety');
    const [host, setting, count] = ['host', 'setting', 'rows'].map((h) => tableHeaders(safety).indexOf(h));
    const shown = new Map<string, number>();
    for (const r of tableRows(safety))
      shown.set(`${r[host]} ${r[setting]}`, (shown.get(`${r[host]} ${r[setting]}`) ?? 0) + Number(r[count]));
    for (const [k, n] of expected) expect(shown.get(k), k).toBe(n);
    // the page and the hunt read one model (safety_off): the same settings, as many times
    const hunted = await sql(
      out,
      `select f.host || ' ' || s.setting_name || '=' || coalesce(s.setting_value, '-') as k, count(*) as n
       from findings f join safety_off s using (row_id) where f.hunt_id = 'safety-turned-off' group by all`,
    );
    expect(hunted.length).toBeGreaterThan(0);
    expect([...shown].sort()).toEqual(hunted.map((h) => [String(h.k), Number(h.n)]).sort());
  });
});
