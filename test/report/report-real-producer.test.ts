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
import { byId, figure, loadFleet, makeReport, type Node, sql, tableRows } from '../helpers/report-page.js';

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
}, 180_000);

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
    const rows = tableRows(byId(doc, 'commands'));
    expect(rows.map((r) => `${r[0]} runs=${r[1]} hosts=${r[2]}`).sort()).toEqual(
      [...expected].map(([cmd, e]) => `${cmd} runs=${e.runs} hosts=${e.hosts.size}`).sort(),
    );
  });

  it("lists the auto-approval, yolo and MCP auto-approve settings of the CLIs' own files", async () => {
    const expected = new Map<string, number>();
    const add = (key: string, n = 1) => expected.set(key, (expected.get(key) ?? 0) + n);
    for (const c of CORPORA) {
      const data = path.join(c.home, '.cline', 'data');
      const globalState = readJson(path.join(data, 'globalState.json'));
      if (globalState?.yoloModeToggled === true) add(`${c.name} yoloModeToggled=true`);
      const auto = globalState?.autoApprovalSettings as { enabled?: boolean; actions?: Record<string, unknown> } | undefined;
      if (auto?.enabled === true) add(`${c.name} autoApprovalSettings.enabled=true`);
      for (const [action, on] of Object.entries(auto?.actions ?? {}))
        if (on === true) add(`${c.name} autoApprovalSettings.actions.${action}=true`);
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
    const hooks = await sql(
      out,
      `select host, count(*) as n from events where kind = 'hook_result' and text like '%"autoApprove":true%' group by host`,
    );
    for (const h of hooks) add(`${h.host} "autoApprove":true`, Number(h.n));
    // the corpus holds each kind of setting: yolo mode in 1.x tasks, auto-approval, and 3.x hook answers
    expect([...expected.keys()].some((k) => k.endsWith('yoloModeToggled=true'))).toBe(true);
    expect(hooks.length).toBeGreaterThan(0);
    const rows = tableRows(byId(doc, 'safety'));
    const shown = new Map<string, number>();
    for (const r of rows) shown.set(`${r[0]} ${r[2]}`, (shown.get(`${r[0]} ${r[2]}`) ?? 0) + Number(r[4]));
    expect([...shown].sort()).toEqual([...expected].sort());
  });
});
